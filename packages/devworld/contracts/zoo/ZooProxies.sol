// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {TransparentUpgradeableProxy} from "@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts/proxy/utils/UUPSUpgradeable.sol";
import {ZooInitializable} from "./ZooBase.sol";
import {ZooBlacklistPower, ZooMintPower} from "./ZooOwnerPowers.sol";

/// Logic of the EIP-1967 transparent proxy: the mintable token (the owner mints at will).
/// Upgrades are the proxy admin's (a ProxyAdmin contract the proxy deploys for its owner).
contract ZooMintableLogic is ZooMintPower, ZooInitializable {
    function initialize(string memory name_, string memory symbol_, uint256 supply, address holder) external initializer {
        _initToken(name_, symbol_, 18, supply, holder);
    }
}

/// Logic of the UUPS proxy: the blacklist token (the owner blocks any address), upgradeable by
/// its owner through `upgradeToAndCall`.
contract ZooBlacklistUupsLogic is ZooBlacklistPower, ZooInitializable, UUPSUpgradeable {
    function initialize(string memory name_, string memory symbol_, uint256 supply, address holder) external initializer {
        _initToken(name_, symbol_, 18, supply, holder);
    }

    function _authorizeUpgrade(address) internal view override onlyOwner {}
}

/// OpenZeppelin's transparent proxy under a zoo name (so that it gets an artifact of its own).
contract ZooTransparentProxy is TransparentUpgradeableProxy {
    constructor(address logic, address initialOwner, bytes memory data)
        payable
        TransparentUpgradeableProxy(logic, initialOwner, data)
    {}
}

/// OpenZeppelin's plain EIP-1967 proxy, used for the UUPS token.
contract ZooUupsProxy is ERC1967Proxy {
    constructor(address logic, bytes memory data) payable ERC1967Proxy(logic, data) {}
}
