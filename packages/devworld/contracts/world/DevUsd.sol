// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooERC20} from "../zoo/ZooBase.sol";

/// The local world's US dollar: 6 decimals, a fixed supply minted once to the deployer, no
/// owner and no powers.
contract DevUsd is ZooERC20 {
    constructor(uint256 supply) {
        _initMetadata("Devnet USD", "USD", 6);
        _mint(msg.sender, supply);
    }
}
