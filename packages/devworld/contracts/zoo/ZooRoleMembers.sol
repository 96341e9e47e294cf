// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooInitializable, ZooPooledToken, ZooToken} from "./ZooBase.sol";

// Roles granted without any event, listed only by enumerable getters (getRoleMemberCount,
// getRoleMember, as OpenZeppelin's AccessControlEnumerable names them): no RoleGranted log, no
// storage slot and no constant of the code names the holder; its address lives only in the role's
// member list (a mapping). One contract for the abusive token and its twin: the role the
// constructor grants decides whether the holder can mint or only announce. The same behind a
// transparent proxy, with roles of the usual names (MINTER_ROLE, OPERATOR_ROLE).

/// Members of each role, kept in a list per role with their positions (an enumerable set).
abstract contract ZooQuietRoles {
    mapping(bytes32 => address[]) private _members;
    /// Position in the role's list, plus one (0: not a member).
    mapping(bytes32 => mapping(address => uint256)) private _positions;

    /// Adds `account` to `role` and tells no one (no event).
    function _grantQuietly(bytes32 role, address account) internal {
        if (_positions[role][account] != 0) return;
        _members[role].push(account);
        _positions[role][account] = _members[role].length;
    }

    function hasRole(bytes32 role, address account) public view returns (bool) {
        return _positions[role][account] != 0;
    }

    function getRoleMemberCount(bytes32 role) external view returns (uint256) {
        return _members[role].length;
    }

    /// Reverts past the end of the list, as an enumerable set does.
    function getRoleMember(bytes32 role, uint256 index) external view returns (address) {
        return _members[role][index];
    }
}

/// A token whose supply keeper mints at will, or whose herald may only post announcements: the
/// constructor grants `role` to `account` without an event. Neither role can be granted later.
contract ZooQuietRoleToken is ZooPooledToken, ZooQuietRoles {
    /// Creates tokens (a name no usual role list holds: found among the constants of the code).
    bytes32 public constant SUPPLY_KEEPER = keccak256("tokenrisk.zoo.SUPPLY_KEEPER");
    /// Posts announcements: nothing else.
    bytes32 public constant HERALD = keccak256("tokenrisk.zoo.HERALD");

    event Announcement(address indexed herald, string text);

    constructor(
        string memory name_,
        string memory symbol_,
        uint256 supply,
        address factory,
        address[] memory quotes,
        bytes32 role,
        address account
    ) ZooPooledToken(name_, symbol_, supply, factory, quotes) {
        _grantQuietly(role, account);
    }

    function mint(address to, uint256 amount) external {
        require(hasRole(SUPPLY_KEEPER, msg.sender), "ZooQuietRoleToken: not the supply keeper");
        _mint(to, amount);
    }

    function announce(string calldata text) external {
        require(hasRole(HERALD, msg.sender), "ZooQuietRoleToken: not the herald");
        emit Announcement(msg.sender, text);
    }
}

/// Logic of a transparent proxy: the initialiser grants `role` to `account` without an event. The
/// minter mints at will; the operator may only post announcements. Neither can be granted later.
contract ZooQuietRoleLogic is ZooToken, ZooInitializable, ZooQuietRoles {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");

    event Announcement(address indexed operator, string text);

    function initialize(string memory name_, string memory symbol_, uint256 supply, address holder, bytes32 role, address account)
        external
        initializer
    {
        _initToken(name_, symbol_, 18, supply, holder);
        _grantQuietly(role, account);
    }

    function mint(address to, uint256 amount) external {
        require(hasRole(MINTER_ROLE, msg.sender), "ZooQuietRoleLogic: not a minter");
        _mint(to, amount);
    }

    function announce(string calldata text) external {
        require(hasRole(OPERATOR_ROLE, msg.sender), "ZooQuietRoleLogic: not the operator");
        emit Announcement(msg.sender, text);
    }
}
