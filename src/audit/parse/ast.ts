/**
 * The syntax tree tokenrisk analyses: the node types of `@solidity-parser/parser`, whichever of
 * our two parsers produced it (see parse-source.ts). Every node carries `loc` (1-based lines,
 * 0-based columns; `end` is the start of the node's last token) and `range` ([first, last]
 * offsets, inclusive).
 */
export type * from '@solidity-parser/parser/dist/src/ast-types.js'
