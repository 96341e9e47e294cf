/**
 * Generated Solidity for tests and benchmarks of the analyzer's bounds: `count` small contracts,
 * each with the same handful of findings (tx.origin, an unchecked call before a state write, a
 * timestamp, a loop over a growing array, a division before a multiplication, a missing zero
 * check), so that findings repeat per detector and file the way they do in generated code.
 */
export function vaultContract(i: number): string {
  return `
contract Vault${i} {
    address public owner;
    mapping(address => uint256) public balances;
    address[] public users;
    function deposit() external payable { balances[msg.sender] += msg.value; users.push(msg.sender); }
    function withdraw(uint256 amount) external {
        require(tx.origin == owner);
        (bool ok, ) = msg.sender.call{value: amount}("");
        balances[msg.sender] -= amount;
    }
    function setOwner(address o) external { owner = o; }
    function lucky() external view returns (bool) { return block.timestamp % 7 == 0; }
    function payAll() external { for (uint256 i = 0; i < users.length; i++) { payable(users[i]).transfer(1); } }
    function ratio(uint256 a, uint256 b) external pure returns (uint256) { return a / b * 3; }
}
`
}

/** A Solidity file of about `bytes` bytes (at least one contract). */
export function generateSolidity(bytes: number): string {
  let source = '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\n'
  for (let i = 0; source.length < bytes; i++) source += vaultContract(i)
  return source
}
