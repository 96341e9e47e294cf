import type * as AST from '../parse/ast.ts'

/**
 * A place in the source: a node of the syntax tree, as facts point at it. Detectors hold one to
 * report at, quote (`code`, `nodeText`) or compare its position, never to look inside it: what a
 * node is and what it contains is a fact of the IR or a question to an analysis.
 */
export type SourceNode = AST.BaseASTNode

/**
 * The intermediate representation detectors read: the project's files, contracts with their
 * inheritance linearised, functions and modifiers with precomputed facts (calls classified, state
 * reads and writes, guards, an ordered effect sequence for reentrancy), and a node index so a
 * detector never walks a syntax tree itself. Built once per analysis by `buildIr`.
 */
export interface ProjectIr {
  root: string
  files: SourceFileIr[]
  /** Every contract, library and interface of every file (own and dependencies). */
  contracts: ContractIr[]
  /** Functions declared at file level. */
  freeFunctions: FunctionIr[]
  /** Parent, enclosing loop and enclosing statement of every node inside a function body. */
  info(node: AST.BaseASTNode): NodeInfo | undefined
}

export interface SourceFileIr {
  absolutePath: string
  /** Path relative to the project root, with forward slashes. */
  path: string
  source: string
  own: boolean
  lines: number
  ast: AST.SourceUnit
  pragmas: AST.PragmaDirective[]
  /** The range of compiler versions the file's `pragma solidity` allows; null when it has none. */
  compiler: VersionRange | null
  /**
   * The compiler versions that can build the file: the pragma's range narrowed by what its syntax
   * allows (`throw`, `var`, `sha3`, … compile only before 0.5.0; `unchecked` needs 0.8.0; see
   * `syntaxVersions`); null when neither says anything. Version-dependent detectors read this,
   * so `pragma solidity >=0.4.0` over 0.4 code is analysed as 0.4 code.
   */
  versions: VersionRange | null
  contracts: ContractIr[]
  /** Functions the file attaches to a type by name (`using {f, L.g} for T`, at file level or in a contract): `f`, `g`. */
  attachedFunctions: string[]
}

/** A half-open range of compiler versions, as numbers major*1e6 + minor*1e3 + patch. */
export interface VersionRange {
  min: number
  /** Exclusive upper bound; Infinity when the pragma is open-ended. */
  max: number
  /** Whether the pragma pins one exact version. */
  pinned: boolean
}

export type ContractKind = 'contract' | 'abstract' | 'interface' | 'library'

export interface ContractIr {
  name: string
  kind: ContractKind
  file: SourceFileIr
  node: AST.ContractDefinition
  /** Direct bases as written, resolved where possible. */
  bases: { name: string; contract: ContractIr | null; node: AST.InheritanceSpecifier }[]
  /** C3 linearisation, most derived first (`[this, …]`); unresolved bases are left out. */
  linearization: ContractIr[]
  stateVariables: StateVariableIr[]
  functions: FunctionIr[]
  modifiers: FunctionIr[]
  events: AST.EventDefinition[]
  structs: AST.StructDefinition[]
  enums: AST.EnumDefinition[]
  errors: AST.CustomErrorDefinition[]
  /** `using L for T` directives of this contract (inherited ones are on the bases). */
  usingFor: { library: string; typeName: string | null }[]
}

export interface StateVariableIr {
  name: string
  contract: ContractIr
  node: AST.StateVariableDeclarationVariable
  declaration: AST.StateVariableDeclaration
  type: TypeRef
  isConstant: boolean
  isImmutable: boolean
  visibility: 'public' | 'private' | 'internal'
  initialValue: AST.Expression | null
}

export type FunctionKind = 'function' | 'constructor' | 'fallback' | 'receive' | 'modifier'

export type Visibility = 'public' | 'external' | 'internal' | 'private'
export type Mutability = 'pure' | 'view' | 'payable' | 'nonpayable'

export interface FunctionIr {
  /** The function's name; `constructor`, `fallback` or `receive` for those. */
  name: string
  kind: FunctionKind
  contract: ContractIr | null
  file: SourceFileIr
  node: AST.FunctionDefinition | AST.ModifierDefinition
  /** Resolved visibility (0.4 functions without one are public; modifiers are internal). */
  visibility: Visibility
  mutability: Mutability
  isVirtual: boolean
  /** Whether it is declared `override`. */
  isOverride: boolean
  /** Whether it is declared `constant`, the spelling of `view` before Solidity 0.5. */
  isDeclaredConstant: boolean
  params: AST.VariableDeclaration[]
  returns: AST.VariableDeclaration[]
  body: AST.Block | null
  /** Modifiers and base-constructor calls in the header, in order. */
  modifierCalls: ModifierCallIr[]
  /** Everything computed by one walk of the body. */
  facts: FunctionFacts
}

export interface ModifierCallIr {
  node: AST.ModifierInvocation
  name: string
  /**
   * Resolved in the declaring contract's linearisation; null for base constructors and unknowns.
   * Modifiers are virtual: `DispatchAnalysis.modifierIn` gives the one a deployed contract runs.
   */
  modifier: FunctionIr | null
}

export interface FunctionFacts {
  calls: CallIr[]
  stateReads: StateAccess[]
  stateWrites: StateAccess[]
  /** require / assert conditions and `if (…) { revert / throw / return }` conditions. */
  guards: GuardIr[]
  /** Local variables and parameters by name. */
  locals: Map<string, LocalVariable>
  /** Local storage pointers and the state variable they point into. */
  storageAliases: Map<string, StateVariableIr>
  loops: LoopIr[]
  emits: AST.EmitStatement[]
  assembly: AST.InlineAssemblyStatement[]
  /** Whether a modifier body contains `_`. */
  hasPlaceholder: boolean
  /** Every assignment and update of the body (`x = v`, `p.owner = v`, `i++`, `delete m[k]`), to state or not, in walk order. */
  assignments: AssignmentIr[]
  /** Observable effects in evaluation order (calls, state writes and reads, events). */
  effects: Effect[]
  /** Every node of the body by type, in source order. */
  nodes: Map<string, AST.BaseASTNode[]>
  /** Identifiers by name (reads and writes), in source order. */
  identifiers: Map<string, AST.Identifier[]>
  /** The `return` statements. */
  returnStatements: AST.ReturnStatement[]
  /** Every comparison (`==`, `!=`, `<`, `>`, `<=`, `>=`) of the body, in source order, with what each side reads. */
  comparisons: ComparisonIr[]
  /** The conditions of `require`, `assert`, `if`, loops and `?:`, in source order, with the values each reads. */
  conditions: ConditionIr[]
  /** Every read of a block, message or transaction value (`msg.value`, `block.number`, `now`), in walk order. */
  environment: { value: EnvironmentValue; node: AST.MemberAccess | AST.Identifier }[]
  /** Every arithmetic operation (`+ - * / % **`, and `+=` … `%=`) of the body, in walk order, as trees of terms. */
  arithmetic: ArithmeticIr[]
}

export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%' | '**' | '+=' | '-=' | '*=' | '/=' | '%='

/** An arithmetic operation: `a / b`, `x *= 2`. */
export interface ArithmeticIr {
  node: AST.BinaryOperation
  operator: ArithmeticOperator
  left: TermIr
  right: TermIr
}

/** One side of an arithmetic operation (or a comparison's operand, see `OperandIr.term`). */
export interface TermIr {
  /** The term as written. */
  node: AST.Expression
  /** The term with its parentheses stripped. */
  expression: AST.Expression
  /** The term's source text without whitespace, for telling two occurrences of one value apart from others. */
  text: string
  /** When the term is a number literal: its digits as written, their value (`Number` of them) and unit (`days`, `ether`), null without one. */
  number: { digits: string; value: number; unit: string | null } | null
  /** The arithmetic operation the term is itself. */
  operation: ArithmeticIr | null
  /**
   * When the term is a local whose only assignment is its declaration, and that declaration
   * assigns an arithmetic operation: that operation (`uint share = a / b; … share * c`).
   */
  definition: ArithmeticIr | null
}

export type ComparisonOperator = '==' | '!=' | '<' | '>' | '<=' | '>='

/** Where a condition sits: the argument of `require` / `assert`, or the condition of a statement or `?:`. */
export type ConditionKind = 'require' | 'assert' | 'if' | 'while' | 'do-while' | 'for' | 'ternary'

export interface ComparisonIr {
  node: AST.BinaryOperation
  operator: ComparisonOperator
  left: OperandIr
  right: OperandIr
  /** The innermost condition the comparison is part of; null when it is not in one (`bool ok = a == b;`). */
  condition: ConditionIr | null
  /**
   * Whether the comparison is that condition or one of its parts joined by `&&`, `||` and `!`
   * (parentheses allowed): `a == 0` in `require(a == 0 || !(b < c))`, not in `require(f(a == 0))`.
   */
  direct: boolean
}

/** One side of a comparison. */
export interface OperandIr {
  /** The operand as written. */
  node: AST.Expression
  /** The operand with its parentheses stripped. */
  expression: AST.Expression
  /** The operand's value when it is a literal number (without a unit) or boolean; null otherwise. */
  literal: LiteralValue | null
  /**
   * The block, message or transaction value the operand is itself (`block.timestamp`, `now` as
   * `block.timestamp`, `msg.sender`, `tx.origin`); null otherwise. Reads of them inside a larger
   * expression are in `reads.environment`.
   */
  environment: EnvironmentValue | null
  /** Whether the operand is zero: the literal `0` (any unit) or `address(0)` / `payable(0)`. */
  zero: boolean
  reads: ValueReads
  /** The operand as an arithmetic term (`start + 30 minutes` is an operation of two terms). */
  term: TermIr
}

export type LiteralValue = { kind: 'number'; value: bigint } | { kind: 'bool'; value: boolean }

/** `block.timestamp`, `block.number`, `msg.sender`, `msg.value`, `tx.origin`, …; `now` is `block.timestamp`. */
export type EnvironmentValue = `${'block' | 'msg' | 'tx'}.${string}`

/** The values an expression reads. */
export interface ValueReads {
  /** State variables read by name (the walk's state reads inside the expression), each once. */
  state: StateVariableIr[]
  /** Parameters of the function read, each once. */
  params: LocalVariable[]
  /** Locals and named return variables read, each once. */
  locals: LocalVariable[]
  /** Block, message and transaction values read, each once, in source order. */
  environment: EnvironmentValue[]
  /** State arrays whose `.length` the expression reads (`items.length`), each once. */
  lengths: StateVariableIr[]
  /** Block, message and transaction values used as a mapping or array index (`allowed[tx.origin]`), each once. */
  keys: EnvironmentValue[]
  /** Whether the expression reads this contract's own ETH balance or token balance (`address(this).balance`, `t.balanceOf(address(this))`), which outsiders can raise. */
  ownBalance: boolean
}

export interface ConditionIr {
  /** The condition expression. */
  node: AST.Expression
  kind: ConditionKind
  /** The statement or expression it is the condition of (the `require` call, the `if`, the loop, the `?:`). */
  owner: AST.BaseASTNode
  reads: ValueReads
  /** The comparisons inside the condition, nested ones (in a call's argument, a `?:`) included, in source order. */
  comparisons: ComparisonIr[]
}

export interface LocalVariable {
  name: string
  node: AST.VariableDeclaration
  type: TypeRef
  isParameter: boolean
  isReturn: boolean
  /** Index in the parameter list, -1 for locals and return variables. */
  parameterIndex: number
  /** The statement declaring a local (`uint a = 1;`, `(bool ok, ) = …`); null for parameters, returns, try and catch variables. */
  statement: AST.VariableDeclarationStatement | null
}

export interface StateAccess {
  variable: StateVariableIr
  node: AST.BaseASTNode
  /** For writes: the whole assignment / update expression. */
  statement: AST.ASTNode | null
  /** For writes made by an assignment or update (`=`, `+=`, `++`, `delete`, …): what it does. */
  assignment: AssignmentIr | null
  /** For reads: whether the read is part of updating the variable (`x += 1`, `x++`), not a read of its own. */
  compound: boolean
}

/** An assignment (`x = v`, `x += v`) or update (`x++`, `--x`, `delete x`). */
export interface AssignmentIr {
  /** The assignment or update expression. */
  node: AST.BinaryOperation | AST.UnaryOperation
  /** `=`, `+=`, `-=`, …, `++`, `--` or `delete`. */
  operator: string
  /** The assigned expression (the left side, or the operand of an update). */
  target: AST.Expression
  /** The value assigned (the right side); null for an update. */
  value: AST.Expression | null
}

export interface GuardIr {
  /** The condition that must hold (for an `if`-revert, the `if` condition itself; see `negated`). */
  condition: AST.Expression
  node: AST.BaseASTNode
  kind: 'require' | 'assert' | 'if-revert' | 'if-return'
  /** Whether execution continues when the condition is false (an `if (cond) revert`). */
  negated: boolean
  /** The condition's boolean structure; execution continues when it evaluates to `!negated`. */
  logic: LogicIr
}

/** A condition's boolean structure: `!`, `&&` and `||` over parts that are none of them (parentheses stripped). */
export type LogicIr =
  | { kind: 'not'; node: AST.UnaryOperation; operand: LogicIr }
  | { kind: 'and' | 'or'; node: AST.BinaryOperation; left: LogicIr; right: LogicIr }
  | { kind: 'part'; node: AST.Expression }

export interface LoopIr {
  node: AST.ForStatement | AST.WhileStatement | AST.DoWhileStatement
  condition: AST.Expression | null
  body: AST.BaseASTNode
  /** A `for` loop's initialisation (`uint256 i = 0`); null when it has none and for other loops. */
  init: AST.BaseASTNode | null
  /** A `for` loop's increment (`i++`); null when it has none and for other loops. */
  increment: AST.Expression | null
}

export type CallKind =
  | 'internal' // a function of the contract hierarchy, a free function or super/Base call
  | 'library' // a library function (called directly or through `using for`)
  | 'external' // a call to another contract through its interface
  | 'external-self' // this.f()
  | 'low-level' // .call / .delegatecall / .staticcall / .callcode
  | 'send' // address.send
  | 'transfer' // address.transfer (ETH)
  | 'creation' // new C(...)
  | 'event' // 0.4 event invocation without emit, and emit's call
  | 'error' // custom error in a revert statement
  | 'conversion' // uint(x), IERC20(x), payable(x), struct constructors
  | 'builtin' // require, keccak256, selfdestruct, abi.encode, push, ...
  | 'option' // the `.value(…)` / `.gas(…)` part of a 0.4 call
  | 'unknown'

/**
 * How an internal call picks its function: `virtual` by name (`_hook()`, an override in the
 * deployed contract wins), `super` (the next contract of the deployed contract's linearisation
 * after the caller's), `static` (library, free function, `Base.f()`, and every non-internal call).
 */
export type CallDispatch = 'virtual' | 'super' | 'static'

export interface CallIr {
  /** The call expression; for a call made in inline assembly, the Yul instruction (`call(…)`). */
  node: AST.FunctionCall | AST.AssemblyCall
  kind: CallKind
  /** Member name or function name (`transfer`, `call`, `require`, `keccak256`). */
  name: string
  /**
   * For member calls: the receiver expression (address or contract). For a call made in assembly:
   * the Solidity expression its address argument stands for (a Solidity variable or parameter,
   * `caller()` as `msg.sender`, `address()` as `this`), a node made for the analysis at the Yul
   * argument's place; null when the address is computed in Yul and not known.
   */
  target: AST.Expression | null
  /** For low-level calls: which one. */
  lowLevel: 'call' | 'delegatecall' | 'staticcall' | 'callcode' | null
  /**
   * ETH sent with the call (`{value: …}`, `.value(…)`, send/transfer amount); null when none. For
   * a call made in assembly: null when its value argument is the literal 0, else the Solidity
   * expression it stands for (see `target`; `callvalue()` is `msg.value`) or the Yul expression
   * itself (a non-zero literal, or a value not known: ETH may be sent).
   */
  value: AST.Expression | AST.AssemblyExpression | null
  /** Gas forwarded when the call sets it (`{gas: …}`, `.gas(…)`); null when it forwards the default. */
  gas: AST.Expression | null
  /**
   * Resolved callee where known (internal, library, or the interface's declaration). Internal
   * calls are resolved in the declaring contract's linearisation; `dispatch` says whether a
   * deployed contract may run another function (`DispatchAnalysis.calleeIn` gives the one it runs).
   */
  callee: FunctionIr | null
  dispatch: CallDispatch
  /** The arguments of a Solidity call; empty for a call made in assembly. */
  args: AST.Expression[]
  /** Whether the call's result is consumed (assigned, compared, passed on, returned; in assembly: not `pop`ped or dropped). */
  resultUsed: boolean
  /** Whether the call sits in a loop (its body, condition or increment). */
  inLoop: boolean
  /** Type of the receiver for external calls. */
  targetType: TypeRef | null
  /** For a call made in inline assembly (`call`, `delegatecall`, `create2`, …): what its Yul code shows. */
  assembly: AssemblyCallFacts | null
}

export interface AssemblyCallFacts {
  /**
   * Whether the success flag is looked at: the call is (part of) the condition of an `if`, `switch`
   * or `for`, or is stored in a variable read afterwards (in assembly or in Solidity) or returned
   * through a named return variable. Like `resultChecked` for Solidity calls, reading the flag counts.
   */
  successChecked: boolean
  /** The variables the result is stored in (`x := create(…)`, `let ok := call(…)`); empty when it is not stored. */
  storedIn: string[]
}

export type Effect =
  | { kind: 'call'; call: CallIr; path: BranchPath }
  | { kind: 'write'; access: StateAccess; path: BranchPath }
  | { kind: 'read'; access: StateAccess; path: BranchPath }
  | { kind: 'emit'; node: AST.EmitStatement | AST.FunctionCall; path: BranchPath }
  | { kind: 'placeholder'; path: BranchPath }

/** The branches taken to reach an effect: `[branchId, side]` pairs. */
export type BranchPath = readonly (readonly [number, number])[]

export interface NodeInfo {
  parent: AST.ASTNode | null
  /** Innermost loop around the node (body, condition or increment), if any. */
  loop: LoopIr | null
  /** Whether the node is inside an `unchecked` block. */
  unchecked: boolean
  /** The function or modifier the node belongs to. */
  function: FunctionIr
}

export type TypeRef =
  | { kind: 'elementary'; name: string }
  | { kind: 'contract'; name: string; contract: ContractIr | null }
  | { kind: 'struct'; name: string; definition: AST.StructDefinition | null; owner: ContractIr | null }
  | { kind: 'enum'; name: string }
  | { kind: 'mapping'; key: TypeRef; value: TypeRef }
  | { kind: 'array'; base: TypeRef; dynamic: boolean }
  | { kind: 'function' }
  | { kind: 'type'; of: TypeRef }
  | { kind: 'unknown' }
