import type * as AST from './ast.ts'
import { SolidityParseError, TokenKind, tokenize, type Token } from './lexer.ts'

/**
 * tokenrisk's Solidity parser: a hand-written recursive-descent parser for Solidity 0.4 to 0.8
 * (including 0.4-era `throw`, `var`, `function()` fallbacks, `constant` functions, old-style
 * constructors and inline assembly / Yul) that builds the node types of `@solidity-parser/parser`.
 *
 * Why a second parser: the ANTLR-generated one spends most of its time in full-context
 * prediction (about 9 s for the 250 files of @openzeppelin/contracts on one core); this one
 * parses the same tree in a few hundred milliseconds. `parse-source.ts` falls back to the ANTLR
 * parser for any file this one rejects, and a test compares both trees on real code.
 *
 * Node locations follow the ANTLR parser: `loc.start` is the first token's position, `loc.end`
 * the start of the last token, `range` the first and last character offsets (inclusive).
 *
 * Why it is long: a recursive-descent parser is one class whose methods call each other
 * (statements → expressions → types and back) and share the token cursor; split across files it
 * would need that cursor passed around or exposed, for no gain in reading it.
 */
export function parseSolidity(source: string, tokens: Token[] = tokenize(source)): AST.SourceUnit {
  return new Parser(source, tokens).sourceUnit()
}

const ELEMENTARY_TYPES: ReadonlySet<string> = (() => {
  const names = ['address', 'bool', 'string', 'var', 'bytes', 'byte', 'int', 'uint', 'fixed', 'ufixed']
  for (let bits = 8; bits <= 256; bits += 8) names.push(`int${bits}`, `uint${bits}`)
  for (let size = 1; size <= 32; size++) names.push(`bytes${size}`)
  return new Set(names)
})()

const FIXED_TYPE = /^u?fixed\d+x\d+$/

function isElementaryTypeName(text: string): boolean {
  return ELEMENTARY_TYPES.has(text) || FIXED_TYPE.test(text)
}

const STORAGE_LOCATIONS: ReadonlySet<string> = new Set(['memory', 'storage', 'calldata'])

const SUBDENOMINATIONS: ReadonlySet<string> = new Set([
  'wei', 'gwei', 'szabo', 'finney', 'ether', 'seconds', 'minutes', 'hours', 'days', 'weeks', 'years',
])

const ASSIGNMENT_OPERATORS: ReadonlySet<string> = new Set([
  '=', '|=', '^=', '&=', '<<=', '>>=', '>>>=', '+=', '-=', '*=', '/=', '%=',
])

/** Binary operators by precedence level, loosest first (all left-associative). */
const BINARY_LEVELS: readonly (readonly string[])[] = [
  ['||'],
  ['&&'],
  ['==', '!='],
  ['<', '>', '<=', '>='],
  ['|'],
  ['^'],
  ['&'],
  ['<<', '>>', '>>>'],
  ['+', '-'],
  ['*', '/', '%'],
  ['**'],
]

const BINARY_PRECEDENCE: ReadonlyMap<string, number> = new Map(
  BINARY_LEVELS.flatMap((ops, level) => ops.map((op) => [op, level] as [string, number])),
)

const PREFIX_OPERATORS: ReadonlySet<string> = new Set(['++', '--', '+', '-', '!', '~', 'delete', 'after'])

/** Words that start a statement and can never begin a variable declaration. */
const STATEMENT_KEYWORDS: ReadonlySet<string> = new Set([
  'if', 'for', 'while', 'do', 'continue', 'break', 'return', 'throw', 'emit', 'assembly', 'try', 'new', 'delete',
])

const VISIBILITIES: ReadonlySet<string> = new Set(['public', 'private', 'internal', 'external'])
const MUTABILITIES: ReadonlySet<string> = new Set(['pure', 'view', 'payable', 'constant'])

type Meta = Pick<AST.BaseASTNode, 'loc' | 'range'>

/**
 * A node's location as four numbers, `start` and `end` made when read: one small object per node
 * instead of three, about a quarter less memory for the whole tree (the syntax tree is most of
 * what an analysis holds).
 */
class Loc {
  constructor(
    private readonly startLine: number,
    private readonly startColumn: number,
    private readonly endLine: number,
    private readonly endColumn: number,
  ) {}

  get start(): { line: number; column: number } {
    return { line: this.startLine, column: this.startColumn }
  }

  get end(): { line: number; column: number } {
    return { line: this.endLine, column: this.endColumn }
  }

  toJSON(): { start: { line: number; column: number }; end: { line: number; column: number } } {
    return { start: this.start, end: this.end }
  }
}

/** Thrown to abandon a speculative parse; never escapes the parser. */
class Backtrack extends Error {}

class Parser {
  private readonly tokens: Token[]
  private pos = 0
  private currentContract: string | undefined

  constructor(
    private readonly source: string,
    tokens: Token[],
  ) {
    this.tokens = tokens
  }

  // ---------------------------------------------------------------- token helpers

  private get tok(): Token {
    return this.tokens[this.pos]
  }

  private peek(offset = 1): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]
  }

  private get prev(): Token {
    return this.tokens[this.pos - 1]
  }

  /** Whether the current token is the punctuator or word `text` (never a string literal). */
  private is(text: string, token: Token = this.tok): boolean {
    return token.text === text && (token.kind === TokenKind.Punct || token.kind === TokenKind.Identifier)
  }

  private eat(text: string): boolean {
    if (this.is(text)) {
      this.pos++
      return true
    }
    return false
  }

  private expect(text: string): Token {
    if (!this.is(text)) this.fail(`expected '${text}'`)
    return this.tokens[this.pos++]
  }

  private identifierToken(): Token {
    const token = this.tok
    if (token.kind !== TokenKind.Identifier) this.fail('expected an identifier')
    this.pos++
    return token
  }

  private fail(message: string, token: Token = this.tok): never {
    const found = token.kind === TokenKind.EOF ? 'end of file' : `'${token.text}'`
    throw new SolidityParseError(`${message}, found ${found}`, token.line, token.column)
  }

  /** Location of the tokens from `first` to the last consumed one. */
  private meta(first: Token): Meta {
    const last = this.pos > 0 ? this.tokens[this.pos - 1] : first
    const end = last.start >= first.start ? last : first
    return {
      loc: new Loc(first.line, first.column, end.line, end.column),
      range: [first.start, end.end - 1],
    }
  }

  /** Location spanning from the start of `node` to the last consumed token. */
  private metaFrom(node: AST.BaseASTNode): Meta {
    const last = this.prev
    return {
      loc: new Loc(node.loc!.start.line, node.loc!.start.column, last.line, last.column),
      range: [node.range![0], last.end - 1],
    }
  }

  private identifier(): AST.Identifier {
    const token = this.identifierToken()
    return { type: 'Identifier', name: token.text, ...this.meta(token) }
  }

  // ---------------------------------------------------------------- source unit

  sourceUnit(): AST.SourceUnit {
    const first = this.tok
    const children: AST.ASTNode[] = []
    while (this.tok.kind !== TokenKind.EOF) {
      const t = this.tok
      if (this.is('pragma')) children.push(this.pragma())
      else if (this.is('import')) children.push(this.importDirective())
      else if (this.is('contract') || this.is('interface') || this.is('library')) children.push(this.contract())
      else if (this.is('abstract') && this.is('contract', this.peek())) children.push(this.contract())
      else if (this.is('struct')) children.push(this.struct())
      else if (this.is('enum')) children.push(this.enumDefinition())
      else if (this.is('function')) children.push(this.functionDefinition())
      else if (this.is('error') && this.peek().kind === TokenKind.Identifier && this.is('(', this.peek(2))) children.push(this.errorDefinition())
      else if (this.is('event')) children.push(this.event())
      else if (this.is('using')) children.push(this.usingFor())
      else if (this.is('type') && this.is('is', this.peek(2))) children.push(this.typeDefinition())
      else if (this.eat(';')) continue
      else if (t.kind === TokenKind.Identifier) children.push(this.fileLevelConstant())
      else this.fail('expected a pragma, import, contract or declaration')
    }
    const meta = this.meta(first)
    return { type: 'SourceUnit', children, ...meta }
  }

  private pragma(): AST.PragmaDirective {
    const first = this.expect('pragma')
    const nameToken = this.identifierToken()
    const valueStart = this.tok.start
    while (!this.is(';')) {
      if (this.tok.kind === TokenKind.EOF) this.fail("expected ';' after the pragma")
      this.pos++
    }
    const raw = this.source.slice(valueStart, this.tok.start)
    this.pos++
    return { type: 'PragmaDirective', name: nameToken.text, value: normalizePragmaValue(nameToken.text, raw), ...this.meta(first) }
  }

  private importDirective(): AST.ImportDirective {
    const first = this.expect('import')
    let unitAlias: AST.Identifier | null = null
    let symbols: Array<[AST.Identifier, AST.Identifier | null]> | null = null
    let pathToken: Token
    if (this.tok.kind === TokenKind.String) {
      pathToken = this.tokens[this.pos++]
      if (this.eat('as')) unitAlias = this.identifier()
    } else if (this.is('{')) {
      this.pos++
      symbols = []
      while (!this.is('}')) {
        const symbol = this.identifier()
        const alias = this.eat('as') ? this.identifier() : null
        symbols.push([symbol, alias])
        if (!this.eat(',')) break
      }
      this.expect('}')
      this.expect('from')
      pathToken = this.stringToken()
    } else {
      let name: AST.Identifier | null = null
      if (this.eat('*')) name = null
      else name = this.identifier()
      if (this.eat('as')) name = this.identifier()
      unitAlias = name
      this.expect('from')
      pathToken = this.stringToken()
    }
    this.expect(';')
    const path = pathToken.text.slice(1, -1)
    const pathLiteral: AST.StringLiteral = {
      type: 'StringLiteral',
      value: path,
      parts: [path],
      isUnicode: [false],
      loc: new Loc(pathToken.line, pathToken.column, pathToken.line, pathToken.column),
      range: [pathToken.start, pathToken.end - 1],
    }
    return {
      type: 'ImportDirective',
      path,
      pathLiteral,
      unitAlias: unitAlias ? unitAlias.name : null,
      unitAliasIdentifier: unitAlias,
      symbolAliases: symbols ? symbols.map(([s, a]) => [s.name, a ? a.name : null]) : null,
      symbolAliasesIdentifiers: symbols,
      ...this.meta(first),
    }
  }

  private stringToken(): Token {
    if (this.tok.kind !== TokenKind.String) this.fail('expected a string literal')
    return this.tokens[this.pos++]
  }

  private contract(): AST.ContractDefinition {
    const first = this.tok
    const kind = this.tok.text
    this.pos++
    if (kind === 'abstract') this.expect('contract')
    const name = this.identifierToken().text
    this.currentContract = name
    const baseContracts: AST.InheritanceSpecifier[] = []
    if (this.eat('is')) {
      do {
        const start = this.tok
        const baseName = this.userDefinedTypeName()
        let args: AST.Expression[] = []
        if (this.eat('(')) args = this.expressionList(')')
        baseContracts.push({ type: 'InheritanceSpecifier', baseName, arguments: args, ...this.meta(start) })
      } while (this.eat(','))
    }
    let storageLayout: AST.Expression | undefined
    if (this.is('layout') && this.is('at', this.peek())) {
      this.pos += 2
      storageLayout = this.expression()
    }
    this.expect('{')
    const subNodes: AST.BaseASTNode[] = []
    while (!this.eat('}')) {
      if (this.tok.kind === TokenKind.EOF) this.fail("expected '}' to close the contract")
      const part = this.contractPart()
      if (part) subNodes.push(part)
    }
    const node: AST.ContractDefinition = { type: 'ContractDefinition', name, baseContracts, subNodes, kind, ...this.meta(first) }
    if (storageLayout) node.storageLayout = storageLayout
    return node
  }

  private contractPart(): AST.BaseASTNode | null {
    const next = this.peek()
    if (this.is('function')) {
      if (!this.is('(', next)) return this.functionDefinition()
      // `function (…) …` is a 0.4 fallback or a state variable of function type.
      const save = this.pos
      try {
        return this.functionDefinition()
      } catch (error) {
        if (!(error instanceof SolidityParseError)) throw error
        this.pos = save
        return this.stateVariable()
      }
    }
    if ((this.is('constructor') || this.is('fallback') || this.is('receive')) && this.is('(', next)) return this.functionDefinition()
    if (this.is('modifier')) return this.modifierDefinition()
    if (this.is('event')) return this.event()
    if (this.is('error') && next.kind === TokenKind.Identifier && this.is('(', this.peek(2))) return this.errorDefinition()
    if (this.is('struct')) return this.struct()
    if (this.is('enum')) return this.enumDefinition()
    if (this.is('using')) return this.usingFor()
    if (this.is('type') && this.is('is', this.peek(2))) return this.typeDefinition()
    if (this.eat(';')) return null
    return this.stateVariable()
  }

  private stateVariable(): AST.StateVariableDeclaration {
    const first = this.tok
    const typeName = this.typeName()
    let visibility: AST.VariableDeclaration['visibility'] = 'default'
    let isDeclaredConst = false
    let isImmutable = false
    let isTransient = false
    let override: AST.UserDefinedTypeName[] | null = null
    for (;;) {
      const t = this.tok.text
      if (this.tok.kind !== TokenKind.Identifier) break
      if (t === 'public' || t === 'private' || t === 'internal') {
        if (visibility === 'default') visibility = t
        this.pos++
      } else if (t === 'constant') {
        isDeclaredConst = true
        this.pos++
      } else if (t === 'immutable') {
        isImmutable = true
        this.pos++
      } else if (t === 'transient' && this.peek().kind === TokenKind.Identifier) {
        isTransient = true
        this.pos++
      } else if (t === 'override') {
        this.pos++
        override = this.overrideList()
      } else break
    }
    const identifier = this.identifier()
    let expression: AST.Expression | null = null
    if (this.eat('=')) expression = this.expression()
    this.expect(';')
    const meta = this.meta(first)
    const variable: AST.StateVariableDeclarationVariable = {
      type: 'VariableDeclaration',
      typeName,
      name: identifier.name,
      identifier,
      expression,
      visibility,
      isStateVar: true,
      isDeclaredConst,
      isIndexed: false,
      isImmutable,
      isTransient,
      override,
      storageLocation: null,
      ...meta,
    }
    return { type: 'StateVariableDeclaration', variables: [variable], initialValue: expression, ...this.meta(first) }
  }

  private fileLevelConstant(): AST.FileLevelConstant {
    const first = this.tok
    const typeName = this.typeName()
    if (!this.eat('constant')) this.fail("expected 'constant' in a file-level declaration")
    const name = this.identifierToken().text
    this.expect('=')
    const initialValue = this.expression()
    this.expect(';')
    return { type: 'FileLevelConstant', typeName, name, initialValue, isDeclaredConst: true, isImmutable: false, ...this.meta(first) }
  }

  private overrideList(): AST.UserDefinedTypeName[] {
    const list: AST.UserDefinedTypeName[] = []
    if (this.eat('(')) {
      while (!this.is(')')) {
        list.push(this.userDefinedTypeName())
        if (!this.eat(',')) break
      }
      this.expect(')')
    }
    return list
  }

  private functionDefinition(): AST.FunctionDefinition {
    const first = this.tok
    const keyword = this.tok.text
    this.pos++
    let name: string | null = null
    let isConstructor = false
    let isFallback = false
    let isReceiveEther = false
    if (keyword === 'constructor') isConstructor = true
    else if (keyword === 'fallback') isFallback = true
    else if (keyword === 'receive') isReceiveEther = true
    else {
      name = this.tok.kind === TokenKind.Identifier ? this.identifierToken().text : ''
      isConstructor = name === this.currentContract
      isFallback = name === ''
    }
    this.expect('(')
    const parameters = this.parameterList(')')
    const modifiers: AST.ModifierInvocation[] = []
    let visibility: AST.FunctionDefinition['visibility'] = 'default'
    let stateMutability: AST.FunctionDefinition['stateMutability'] = null
    let isVirtual = false
    let override: AST.UserDefinedTypeName[] | null = null
    for (;;) {
      const t = this.tok
      if (t.kind !== TokenKind.Identifier || t.text === 'returns') break
      if (VISIBILITIES.has(t.text)) {
        if (visibility === 'default') visibility = t.text as AST.FunctionDefinition['visibility']
        this.pos++
      } else if (MUTABILITIES.has(t.text)) {
        if (stateMutability === null) stateMutability = t.text as AST.FunctionDefinition['stateMutability']
        this.pos++
      } else if (t.text === 'virtual') {
        isVirtual = true
        this.pos++
      } else if (t.text === 'override') {
        this.pos++
        const list = this.overrideList()
        if (override === null) override = list
      } else {
        modifiers.push(this.modifierInvocation())
      }
    }
    let returnParameters: AST.VariableDeclaration[] | null = null
    if (this.eat('returns')) {
      this.expect('(')
      returnParameters = this.parameterList(')')
    }
    let body: AST.Block | null = null
    if (this.is('{')) body = this.block()
    else this.expect(';')
    return {
      type: 'FunctionDefinition',
      name,
      parameters: isReceiveEther ? [] : parameters,
      returnParameters: isConstructor || isReceiveEther ? null : returnParameters,
      body,
      visibility,
      modifiers,
      override,
      isConstructor,
      isReceiveEther,
      isFallback,
      isVirtual,
      stateMutability,
      ...this.meta(first),
    }
  }

  private modifierInvocation(): AST.ModifierInvocation {
    const first = this.tok
    let name = this.identifierToken().text
    while (this.is('.') && this.peek().kind === TokenKind.Identifier) {
      this.pos++
      name += '.' + this.identifierToken().text
    }
    let args: AST.Expression[] | null = null
    if (this.eat('(')) args = this.expressionList(')')
    return { type: 'ModifierInvocation', name, arguments: args, ...this.meta(first) }
  }

  private modifierDefinition(): AST.ModifierDefinition {
    const first = this.expect('modifier')
    const name = this.identifierToken().text
    let parameters: AST.VariableDeclaration[] | null = null
    if (this.eat('(')) parameters = this.parameterList(')')
    let isVirtual = false
    let override: AST.UserDefinedTypeName[] | null = null
    for (;;) {
      if (this.eat('virtual')) isVirtual = true
      else if (this.eat('override')) override = this.overrideList()
      else break
    }
    let body: AST.Block | null = null
    if (this.is('{')) body = this.block()
    else this.expect(';')
    return { type: 'ModifierDefinition', name, parameters, body, isVirtual, override, ...this.meta(first) }
  }

  private event(): AST.EventDefinition {
    const first = this.expect('event')
    const name = this.identifierToken().text
    this.expect('(')
    const parameters: AST.VariableDeclaration[] = []
    while (!this.is(')')) {
      const start = this.tok
      const typeName = this.typeName()
      const isIndexed = this.eat('indexed')
      let identifier: AST.Identifier | null = null
      if (this.tok.kind === TokenKind.Identifier) identifier = this.identifier()
      parameters.push({
        type: 'VariableDeclaration',
        typeName,
        name: identifier ? identifier.name : null,
        identifier,
        isStateVar: false,
        isIndexed,
        storageLocation: null,
        expression: null,
        ...this.meta(start),
      })
      if (!this.eat(',')) break
    }
    this.expect(')')
    const isAnonymous = this.eat('anonymous')
    this.expect(';')
    return { type: 'EventDefinition', name, parameters, isAnonymous, ...this.meta(first) }
  }

  private errorDefinition(): AST.CustomErrorDefinition {
    const first = this.expect('error')
    const name = this.identifierToken().text
    this.expect('(')
    const parameters = this.parameterList(')')
    this.expect(';')
    return { type: 'CustomErrorDefinition', name, parameters, ...this.meta(first) }
  }

  private struct(): AST.StructDefinition {
    const first = this.expect('struct')
    const name = this.identifierToken().text
    this.expect('{')
    const members: AST.VariableDeclaration[] = []
    while (!this.eat('}')) {
      const start = this.tok
      const typeName = this.typeName()
      const storageLocation = STORAGE_LOCATIONS.has(this.tok.text) && this.peek().kind === TokenKind.Identifier ? this.tokens[this.pos++].text : null
      const identifier = this.identifier()
      members.push({
        type: 'VariableDeclaration',
        typeName,
        name: identifier.name,
        identifier,
        storageLocation,
        isStateVar: false,
        isIndexed: false,
        expression: null,
        ...this.meta(start),
      })
      this.expect(';')
    }
    return { type: 'StructDefinition', name, members, ...this.meta(first) }
  }

  private enumDefinition(): AST.EnumDefinition {
    const first = this.expect('enum')
    const name = this.identifierToken().text
    this.expect('{')
    const members: AST.EnumValue[] = []
    while (!this.is('}')) {
      const token = this.identifierToken()
      members.push({ type: 'EnumValue', name: token.text, ...this.meta(token) })
      if (!this.eat(',')) break
    }
    this.expect('}')
    return { type: 'EnumDefinition', name, members, ...this.meta(first) }
  }

  private usingFor(): AST.UsingForDeclaration {
    const first = this.expect('using')
    let libraryName: string | null = null
    const functions: string[] = []
    const operators: Array<string | null> = []
    if (this.eat('{')) {
      while (!this.is('}')) {
        functions.push(this.userDefinedTypeName().namePath)
        if (this.eat('as')) {
          operators.push(this.tok.text)
          this.pos++
        } else operators.push(null)
        if (!this.eat(',')) break
      }
      this.expect('}')
    } else {
      libraryName = this.userDefinedTypeName().namePath
    }
    this.expect('for')
    let typeName: AST.TypeName | null = null
    if (!this.eat('*')) typeName = this.typeName()
    const isGlobal = this.eat('global')
    this.expect(';')
    return { type: 'UsingForDeclaration', isGlobal, typeName, libraryName, functions, operators, ...this.meta(first) }
  }

  private typeDefinition(): AST.TypeDefinition {
    const first = this.expect('type')
    const name = this.identifierToken().text
    this.expect('is')
    const start = this.tok
    if (!isElementaryTypeName(start.text)) this.fail('expected an elementary type')
    this.pos++
    const definition: AST.ElementaryTypeName = { type: 'ElementaryTypeName', name: start.text, stateMutability: null, ...this.meta(start) }
    this.expect(';')
    return { type: 'TypeDefinition', name, definition, ...this.meta(first) }
  }

  /** Parameters up to and including `close`; the opening parenthesis is already consumed. */
  private parameterList(close: string): AST.VariableDeclaration[] {
    const parameters: AST.VariableDeclaration[] = []
    while (!this.is(close)) {
      const start = this.tok
      const typeName = this.typeName()
      let storageLocation: string | null = null
      if (STORAGE_LOCATIONS.has(this.tok.text)) storageLocation = this.tokens[this.pos++].text
      let identifier: AST.Identifier | null = null
      if (this.tok.kind === TokenKind.Identifier) identifier = this.identifier()
      parameters.push({
        type: 'VariableDeclaration',
        typeName,
        name: identifier ? identifier.name : null,
        identifier,
        storageLocation,
        isStateVar: false,
        isIndexed: false,
        expression: null,
        ...this.meta(start),
      })
      if (!this.eat(',')) break
    }
    this.expect(close)
    return parameters
  }

  // ---------------------------------------------------------------- types

  private typeName(): AST.TypeName {
    const first = this.tok
    let type: AST.TypeName
    if (this.is('mapping') && this.is('(', this.peek())) type = this.mapping()
    else if (this.is('function') && this.is('(', this.peek())) type = this.functionTypeName()
    else if (first.kind === TokenKind.Identifier && isElementaryTypeName(first.text)) {
      this.pos++
      let stateMutability: string | null = null
      if (first.text === 'address' && this.is('payable')) {
        this.pos++
        stateMutability = 'payable'
      }
      type = { type: 'ElementaryTypeName', name: first.text, stateMutability, ...this.meta(first) }
    } else type = this.userDefinedTypeName()
    while (this.is('[')) {
      this.pos++
      let length: AST.Expression | null = null
      if (!this.is(']')) length = this.expression()
      this.expect(']')
      type = { type: 'ArrayTypeName', baseTypeName: type, length, ...this.meta(first) }
    }
    return type
  }

  private userDefinedTypeName(): AST.UserDefinedTypeName {
    const first = this.identifierToken()
    let namePath = first.text
    while (this.is('.') && this.peek().kind === TokenKind.Identifier) {
      this.pos++
      namePath += '.' + this.identifierToken().text
    }
    return { type: 'UserDefinedTypeName', namePath, ...this.meta(first) }
  }

  private mapping(): AST.Mapping {
    const first = this.expect('mapping')
    this.expect('(')
    const keyStart = this.tok
    let keyType: AST.ElementaryTypeName | AST.UserDefinedTypeName
    if (isElementaryTypeName(keyStart.text)) {
      this.pos++
      keyType = { type: 'ElementaryTypeName', name: keyStart.text, stateMutability: null, ...this.meta(keyStart) }
    } else keyType = this.userDefinedTypeName()
    let keyName: AST.Identifier | null = null
    if (this.tok.kind === TokenKind.Identifier) keyName = this.identifier()
    this.expect('=>')
    const valueType = this.typeName()
    let valueName: AST.Identifier | null = null
    if (this.tok.kind === TokenKind.Identifier) valueName = this.identifier()
    this.expect(')')
    return { type: 'Mapping', keyType, keyName, valueType, valueName, ...this.meta(first) }
  }

  private functionTypeName(): AST.FunctionTypeName {
    const first = this.expect('function')
    this.expect('(')
    const parameterTypes = this.functionTypeParameters()
    let visibility = 'default'
    let stateMutability: string | null = null
    for (;;) {
      const t = this.tok.text
      if (t === 'internal' || t === 'external') {
        if (visibility === 'default') visibility = t
        this.pos++
      } else if (MUTABILITIES.has(t) && this.tok.kind === TokenKind.Identifier) {
        if (stateMutability === null) stateMutability = t
        this.pos++
      } else break
    }
    let returnTypes: AST.VariableDeclaration[] = []
    if (this.is('returns') && this.is('(', this.peek())) {
      this.pos += 2
      returnTypes = this.functionTypeParameters()
    }
    return { type: 'FunctionTypeName', parameterTypes, returnTypes, visibility, stateMutability, ...this.meta(first) }
  }

  private functionTypeParameters(): AST.VariableDeclaration[] {
    const list: AST.VariableDeclaration[] = []
    while (!this.is(')')) {
      const start = this.tok
      const typeName = this.typeName()
      let storageLocation: string | null = null
      if (STORAGE_LOCATIONS.has(this.tok.text)) storageLocation = this.tokens[this.pos++].text
      list.push({
        type: 'VariableDeclaration',
        typeName,
        name: null,
        identifier: null,
        storageLocation,
        isStateVar: false,
        isIndexed: false,
        expression: null,
        ...this.meta(start),
      })
      if (!this.eat(',')) break
    }
    this.expect(')')
    return list
  }

  // ---------------------------------------------------------------- statements

  private block(): AST.Block {
    const first = this.expect('{')
    const statements: AST.BaseASTNode[] = []
    while (!this.eat('}')) {
      if (this.tok.kind === TokenKind.EOF) this.fail("expected '}' to close the block")
      statements.push(this.statement())
    }
    return { type: 'Block', statements, ...this.meta(first) }
  }

  private statement(): AST.Statement {
    const first = this.tok
    if (first.kind === TokenKind.Punct) {
      if (first.text === '{') return this.block()
      if (first.text === '(') return this.simpleStatement()
    } else if (first.kind === TokenKind.Identifier) {
      switch (first.text) {
        case 'if': {
          this.pos++
          this.expect('(')
          const condition = this.expression()
          this.expect(')')
          const trueBody = this.statement()
          const falseBody = this.eat('else') ? this.statement() : null
          return { type: 'IfStatement', condition, trueBody, falseBody, ...this.meta(first) }
        }
        case 'for':
          return this.forStatement()
        case 'while': {
          this.pos++
          this.expect('(')
          const condition = this.expression()
          this.expect(')')
          const body = this.statement()
          return { type: 'WhileStatement', condition, body, ...this.meta(first) }
        }
        case 'do': {
          this.pos++
          const body = this.statement()
          this.expect('while')
          this.expect('(')
          const condition = this.expression()
          this.expect(')')
          this.expect(';')
          return { type: 'DoWhileStatement', condition, body, ...this.meta(first) }
        }
        case 'continue':
          this.pos++
          this.expect(';')
          return { type: 'ContinueStatement', ...this.meta(first) }
        case 'break':
          this.pos++
          this.expect(';')
          return { type: 'BreakStatement', ...this.meta(first) }
        case 'return': {
          this.pos++
          let expression: AST.Expression | null = null
          if (!this.is(';')) expression = this.expression()
          this.expect(';')
          return { type: 'ReturnStatement', expression, ...this.meta(first) }
        }
        case 'throw':
          if (this.is(';', this.peek())) {
            this.pos += 2
            return { type: 'ThrowStatement', ...this.meta(first) }
          }
          break
        case 'emit': {
          this.pos++
          const eventCall = this.expression()
          if (eventCall.type !== 'FunctionCall') this.fail('expected an event call after emit', first)
          this.expect(';')
          return { type: 'EmitStatement', eventCall, ...this.meta(first) }
        }
        case 'revert':
          if (this.peek().kind === TokenKind.Identifier) {
            this.pos++
            const revertCall = this.expression()
            if (revertCall.type !== 'FunctionCall') this.fail('expected an error call after revert', first)
            this.expect(';')
            return { type: 'RevertStatement', revertCall, ...this.meta(first) }
          }
          break
        case 'assembly':
          if (this.is('{', this.peek()) || this.peek().kind === TokenKind.String || this.is('(', this.peek())) return this.inlineAssembly()
          break
        case 'unchecked':
          if (this.is('{', this.peek())) {
            this.pos++
            const block = this.block()
            return { type: 'UncheckedStatement', block, ...this.meta(first) }
          }
          break
        case 'try':
          return this.tryStatement()
      }
    }
    return this.simpleStatement()
  }

  private forStatement(): AST.ForStatement {
    const first = this.expect('for')
    this.expect('(')
    let initExpression: AST.SimpleStatement | null = null
    if (!this.eat(';')) initExpression = this.simpleStatement()
    let conditionExpression: AST.Expression | null = null
    if (!this.eat(';')) {
      conditionExpression = this.expression()
      this.expect(';')
    }
    let loop: AST.Expression | null = null
    if (!this.is(')')) loop = this.expression()
    this.expect(')')
    const body = this.statement()
    return {
      type: 'ForStatement',
      initExpression,
      conditionExpression: conditionExpression as AST.Expression,
      loopExpression: { type: 'ExpressionStatement', expression: loop },
      body,
      ...this.meta(first),
    }
  }

  private tryStatement(): AST.TryStatement {
    const first = this.expect('try')
    const expression = this.expression()
    let returnParameters: AST.VariableDeclaration[] | null = null
    if (this.eat('returns')) {
      this.expect('(')
      returnParameters = this.parameterList(')')
    }
    const body = this.block()
    const catchClauses: AST.CatchClause[] = []
    while (this.is('catch')) {
      const start = this.tok
      this.pos++
      let kind: string | null = null
      if (this.tok.kind === TokenKind.Identifier) kind = this.identifierToken().text
      let parameters: AST.VariableDeclaration[] | null = null
      if (this.eat('(')) parameters = this.parameterList(')')
      const clauseBody = this.block()
      catchClauses.push({ type: 'CatchClause', isReasonStringType: kind === 'Error', kind, parameters, body: clauseBody, ...this.meta(start) })
    }
    if (catchClauses.length === 0) this.fail("expected 'catch' after the try block")
    return { type: 'TryStatement', expression, returnParameters, body, catchClauses, ...this.meta(first) }
  }

  /** A variable declaration or an expression, with its terminating semicolon. */
  private simpleStatement(): AST.SimpleStatement {
    const first = this.tok
    const declaration = this.tryDeclaration()
    if (declaration) return declaration
    const expression = this.expression()
    this.expect(';')
    return { type: 'ExpressionStatement', expression, ...this.meta(first) }
  }

  private tryDeclaration(): AST.VariableDeclarationStatement | null {
    const first = this.tok
    if (first.kind === TokenKind.Identifier) {
      if (first.text === 'var') return this.varDeclaration()
      if (STATEMENT_KEYWORDS.has(first.text)) return null
      const save = this.pos
      let variable: AST.VariableDeclaration | null = null
      try {
        variable = this.speculativeVariableDeclaration()
      } catch (error) {
        if (!(error instanceof Backtrack) && !(error instanceof SolidityParseError)) throw error
      }
      if (!variable) {
        this.pos = save
        return null
      }
      let initialValue: AST.Expression | null = null
      if (this.eat('=')) initialValue = this.expression()
      this.expect(';')
      return { type: 'VariableDeclarationStatement', variables: [variable], initialValue, ...this.meta(first) }
    }
    if (this.is('(')) {
      const save = this.pos
      try {
        this.pos++
        const variables: Array<AST.VariableDeclaration | null> = []
        let sawDeclaration = false
        let expectItem = true
        while (!this.is(')')) {
          if (this.is(',')) {
            if (expectItem) variables.push(null)
            expectItem = true
            this.pos++
            continue
          }
          if (!expectItem) throw new Backtrack()
          const variable = this.speculativeVariableDeclaration()
          if (!variable) throw new Backtrack()
          variables.push(variable)
          sawDeclaration = true
          expectItem = false
        }
        if (expectItem && variables.length > 0) variables.push(null)
        this.expect(')')
        if (!sawDeclaration || !this.is('=')) throw new Backtrack()
        this.pos++
        const initialValue = this.expression()
        this.expect(';')
        return { type: 'VariableDeclarationStatement', variables, initialValue, ...this.meta(first) }
      } catch (error) {
        if (!(error instanceof Backtrack) && !(error instanceof SolidityParseError)) throw error
        this.pos = save
        return null
      }
    }
    return null
  }

  /** `Type [location] name`, or null (position unspecified) when the tokens are not one. */
  private speculativeVariableDeclaration(): AST.VariableDeclaration | null {
    const start = this.tok
    if (start.kind !== TokenKind.Identifier) return null
    const typeName = this.typeName()
    let storageLocation: string | null = null
    if (STORAGE_LOCATIONS.has(this.tok.text) && this.tok.kind === TokenKind.Identifier) storageLocation = this.tokens[this.pos++].text
    if (this.tok.kind !== TokenKind.Identifier) return null
    const identifier = this.identifier()
    return {
      type: 'VariableDeclaration',
      typeName,
      name: identifier.name,
      identifier,
      storageLocation,
      isStateVar: false,
      isIndexed: false,
      expression: null,
      ...this.meta(start),
    }
  }

  private varDeclaration(): AST.VariableDeclarationStatement {
    const first = this.expect('var')
    let variables: Array<AST.VariableDeclaration | null>
    if (this.eat('(')) {
      variables = []
      let expectItem = true
      while (!this.is(')')) {
        if (this.eat(',')) {
          if (expectItem) variables.push(null)
          expectItem = true
          continue
        }
        const identifier = this.identifier()
        variables.push({
          type: 'VariableDeclaration',
          name: identifier.name,
          identifier,
          isStateVar: false,
          isIndexed: false,
          typeName: null,
          storageLocation: null,
          expression: null,
          ...this.meta(this.prev),
        })
        expectItem = false
      }
      if (expectItem && variables.length > 0) variables.push(null)
      this.expect(')')
    } else {
      const identifier = this.identifier()
      variables = [
        {
          type: 'VariableDeclaration',
          typeName: { type: 'ElementaryTypeName', name: 'var', stateMutability: null, ...this.meta(first) },
          name: identifier.name,
          identifier,
          storageLocation: null,
          isStateVar: false,
          isIndexed: false,
          expression: null,
          ...this.meta(first),
        },
      ]
    }
    let initialValue: AST.Expression | null = null
    if (this.eat('=')) initialValue = this.expression()
    this.expect(';')
    return { type: 'VariableDeclarationStatement', variables, initialValue, ...this.meta(first) }
  }

  // ---------------------------------------------------------------- expressions

  private expressionList(close: string): AST.Expression[] {
    const list: AST.Expression[] = []
    while (!this.is(close)) {
      list.push(this.expression())
      if (!this.eat(',')) break
    }
    this.expect(close)
    return list
  }

  expression(): AST.Expression {
    const left = this.conditional()
    const op = this.tok
    if (op.kind === TokenKind.Punct && ASSIGNMENT_OPERATORS.has(op.text)) {
      this.pos++
      const right = this.expression()
      return { type: 'BinaryOperation', operator: op.text as AST.BinOp, left, right, ...this.metaFrom(left) }
    }
    return left
  }

  private conditional(): AST.Expression {
    const condition = this.binary(0)
    if (!this.is('?')) return condition
    this.pos++
    const trueExpression = this.expression()
    this.expect(':')
    const falseExpression = this.expression()
    return { type: 'Conditional', condition, trueExpression, falseExpression, ...this.metaFrom(condition) }
  }

  private binary(minLevel: number): AST.Expression {
    let left = this.unary()
    for (;;) {
      const op = this.tok
      if (op.kind !== TokenKind.Punct) return left
      const level = BINARY_PRECEDENCE.get(op.text)
      if (level === undefined || level < minLevel) return left
      this.pos++
      const right = this.binary(level + 1)
      left = { type: 'BinaryOperation', operator: op.text as AST.BinOp, left, right, ...this.metaFrom(left) }
    }
  }

  private unary(): AST.Expression {
    const first = this.tok
    if (PREFIX_OPERATORS.has(first.text) && (first.kind === TokenKind.Punct || first.text === 'delete' || (first.text === 'after' && this.peek().kind !== TokenKind.Punct))) {
      this.pos++
      const subExpression = this.unary()
      return { type: 'UnaryOperation', operator: first.text as AST.UnaryOp, subExpression, isPrefix: true, ...this.meta(first) }
    }
    return this.postfix(this.primary())
  }

  private postfix(expression: AST.Expression): AST.Expression {
    let node = expression
    for (;;) {
      const t = this.tok
      if (t.kind !== TokenKind.Punct) return node
      switch (t.text) {
        case '.': {
          this.pos++
          const member = this.tok
          if (member.kind !== TokenKind.Identifier) this.fail('expected a member name')
          this.pos++
          node = { type: 'MemberAccess', expression: node, memberName: member.text, ...this.metaFrom(node) }
          break
        }
        case '[': {
          this.pos++
          if (this.eat(']')) {
            const baseTypeName = toTypeName(node)
            if (!baseTypeName) this.fail('expected a type before []', t)
            node = { type: 'ArrayTypeName', baseTypeName, length: null, ...this.metaFrom(node) } as AST.Expression
            break
          }
          let indexStart: AST.Expression | undefined
          if (!this.is(':')) indexStart = this.expression()
          if (this.eat(':')) {
            let indexEnd: AST.Expression | undefined
            if (!this.is(']')) indexEnd = this.expression()
            this.expect(']')
            const range: AST.IndexRangeAccess = { type: 'IndexRangeAccess', base: node, ...this.metaFrom(node) }
            if (indexStart) range.indexStart = indexStart
            if (indexEnd) range.indexEnd = indexEnd
            node = range
          } else {
            this.expect(']')
            node = { type: 'IndexAccess', base: node, index: indexStart as AST.Expression, ...this.metaFrom(node) }
          }
          break
        }
        case '(': {
          this.pos++
          const names: string[] = []
          const identifiers: AST.Identifier[] = []
          let args: AST.Expression[]
          if (this.is('{')) {
            this.pos++
            args = []
            while (!this.is('}')) {
              const identifier = this.identifier()
              this.expect(':')
              names.push(identifier.name)
              identifiers.push(identifier)
              args.push(this.expression())
              if (!this.eat(',')) break
            }
            this.expect('}')
            this.expect(')')
          } else args = this.expressionList(')')
          node = { type: 'FunctionCall', expression: node, arguments: args, names, identifiers, ...this.metaFrom(node) }
          break
        }
        case '{': {
          // Call options (`{value: …, gas: …}`); anything else is a block after the expression.
          if (!(this.peek().kind === TokenKind.Identifier && this.is(':', this.peek(2)))) return node
          this.pos++
          const start = this.tok
          const names: string[] = []
          const identifiers: AST.Identifier[] = []
          const args: AST.Expression[] = []
          while (!this.is('}')) {
            const identifier = this.identifier()
            this.expect(':')
            names.push(identifier.name)
            identifiers.push(identifier)
            args.push(this.expression())
            if (!this.eat(',')) break
          }
          const list: AST.NameValueList = { type: 'NameValueList', names, identifiers, arguments: args, ...this.meta(start) }
          this.expect('}')
          node = { type: 'NameValueExpression', expression: node, arguments: list, ...this.metaFrom(node) }
          break
        }
        case '++':
        case '--':
          this.pos++
          node = { type: 'UnaryOperation', operator: t.text, subExpression: node, isPrefix: false, ...this.metaFrom(node) }
          break
        default:
          return node
      }
    }
  }

  private primary(): AST.Expression {
    const first = this.tok
    switch (first.kind) {
      case TokenKind.Number: {
        this.pos++
        let subdenomination: AST.NumberLiteral['subdenomination'] = null
        if (this.tok.kind === TokenKind.Identifier && SUBDENOMINATIONS.has(this.tok.text)) {
          subdenomination = this.tok.text as AST.NumberLiteral['subdenomination']
          this.pos++
        }
        return { type: 'NumberLiteral', number: first.text, subdenomination, ...this.meta(first) }
      }
      case TokenKind.String: {
        const parts: string[] = []
        const isUnicode: boolean[] = []
        while (this.tok.kind === TokenKind.String) {
          const raw = this.tokens[this.pos++].text
          const unicode = raw.startsWith('unicode')
          const text = unicode ? raw.slice(7) : raw
          const inner = text.slice(1, -1)
          parts.push(text[0] === "'" ? inner.replace(/\\'/g, "'") : inner.replace(/\\"/g, '"'))
          isUnicode.push(unicode)
        }
        return { type: 'StringLiteral', value: parts.join(''), parts, isUnicode, ...this.meta(first) }
      }
      case TokenKind.HexString: {
        const parts: string[] = []
        while (this.tok.kind === TokenKind.HexString) {
          const raw = this.tokens[this.pos++].text
          parts.push(raw.slice(4, -1))
        }
        return { type: 'HexLiteral', value: parts.join(''), parts, ...this.meta(first) }
      }
      case TokenKind.Punct:
        if (first.text === '(' || first.text === '[') return this.tuple()
        break
      case TokenKind.Identifier: {
        const text = first.text
        if (text === 'true' || text === 'false') {
          this.pos++
          return { type: 'BooleanLiteral', value: text === 'true', ...this.meta(first) }
        }
        if (text === 'new') {
          this.pos++
          const typeName = this.typeName()
          return { type: 'NewExpression', typeName, ...this.meta(first) }
        }
        if (text === 'mapping' && this.is('(', this.peek())) return this.typeName() as AST.Expression
        if (text === 'function' && this.is('(', this.peek())) return this.functionTypeName() as AST.Expression
        if (isElementaryTypeName(text) && !(text === 'address' && !this.is('payable', this.peek()))) {
          this.pos++
          let stateMutability: string | null = null
          if (text === 'address' && this.is('payable')) {
            this.pos++
            stateMutability = 'payable'
          }
          return { type: 'ElementaryTypeName', name: text, stateMutability, ...this.meta(first) } as AST.Expression
        }
        this.pos++
        return { type: 'Identifier', name: text, ...this.meta(first) }
      }
    }
    this.fail('expected an expression')
  }

  private tuple(): AST.TupleExpression {
    const first = this.tok
    const isArray = first.text === '['
    const close = isArray ? ']' : ')'
    this.pos++
    const components: Array<AST.BaseASTNode | null> = []
    let expectItem = true
    while (!this.is(close)) {
      if (this.eat(',')) {
        if (expectItem) components.push(null)
        expectItem = true
        continue
      }
      if (!expectItem) this.fail(`expected ',' or '${close}'`)
      components.push(this.expression())
      expectItem = false
    }
    if (expectItem && components.length > 0) components.push(null)
    this.expect(close)
    return { type: 'TupleExpression', components, isArray, ...this.meta(first) }
  }

  // ---------------------------------------------------------------- inline assembly (Yul)

  private inlineAssembly(): AST.InlineAssemblyStatement {
    const first = this.expect('assembly')
    let language: string | null = null
    if (this.tok.kind === TokenKind.String) language = this.tokens[this.pos++].text.slice(1, -1)
    const flags: string[] = []
    if (this.eat('(')) {
      while (this.tok.kind === TokenKind.String) {
        flags.push(this.tokens[this.pos++].text.slice(1, -1))
        if (!this.eat(',')) break
      }
      this.expect(')')
    }
    const body = this.assemblyBlock()
    return { type: 'InlineAssemblyStatement', language, flags, body, ...this.meta(first) }
  }

  private assemblyBlock(): AST.AssemblyBlock {
    const first = this.expect('{')
    const operations: AST.AssemblyItem[] = []
    while (!this.eat('}')) {
      if (this.tok.kind === TokenKind.EOF) this.fail("expected '}' to close the assembly block")
      operations.push(this.assemblyItem())
    }
    return { type: 'AssemblyBlock', operations, ...this.meta(first) }
  }

  private assemblyItem(): AST.AssemblyItem {
    const first = this.tok
    if (this.is('{')) return this.assemblyBlock()
    if (first.kind === TokenKind.Identifier) {
      const next = this.peek()
      switch (first.text) {
        case 'let': {
          this.pos++
          const names = this.assemblyNames()
          let expression: AST.AssemblyExpression | null = null
          if (this.eat(':=')) expression = this.assemblyExpression()
          return { type: 'AssemblyLocalDefinition', names, expression, ...this.meta(first) }
        }
        case 'function':
          if (next.kind === TokenKind.Identifier) return this.assemblyFunction()
          break
        case 'if': {
          this.pos++
          const condition = this.assemblyExpression()
          const body = this.assemblyBlock()
          return { type: 'AssemblyIf', condition, body, ...this.meta(first) }
        }
        case 'switch':
          return this.assemblySwitch()
        case 'for': {
          this.pos++
          const pre = this.is('{') ? this.assemblyBlock() : this.assemblyExpression()
          const condition = this.assemblyExpression()
          const post = this.is('{') ? this.assemblyBlock() : this.assemblyExpression()
          const body = this.assemblyBlock()
          return { type: 'AssemblyFor', pre, condition, post, body, ...this.meta(first) }
        }
        case 'break':
          this.pos++
          return { type: 'Break', ...this.meta(first) }
        case 'continue':
          this.pos++
          return { type: 'Continue', ...this.meta(first) }
      }
      if (this.is(':=', next) || this.is(',', next) || (this.is('.', next) && this.is(':=', this.peek(3)))) {
        const names = this.assemblyNames()
        this.expect(':=')
        const expression = this.assemblyExpression()
        return { type: 'AssemblyAssignment', names, expression, ...this.meta(first) }
      }
      if (this.is(':', next)) {
        this.pos += 2
        return { type: 'LabelDefinition', name: first.text, ...this.meta(first) }
      }
      if (!this.is('(', next) && !this.is('.', next)) {
        this.pos++
        return { type: 'Identifier', name: first.text, ...this.meta(first) }
      }
    }
    if (this.is('=:')) {
      this.pos++
      const name = this.identifierToken().text
      return { type: 'AssemblyStackAssignment', name, expression: { type: 'AssemblyCall', functionName: name, arguments: [] }, ...this.meta(first) } as AST.AssemblyStackAssignment
    }
    return this.assemblyExpression()
  }

  private assemblyNames(): AST.Identifier[] | AST.AssemblyMemberAccess[] {
    const first = this.identifier()
    if (this.is('.') && this.peek().kind === TokenKind.Identifier) {
      this.pos++
      const memberName = this.identifier()
      return [{ type: 'AssemblyMemberAccess', expression: first, memberName, ...this.metaFrom(first) }]
    }
    const names: AST.Identifier[] = [first]
    while (this.eat(',')) names.push(this.identifier())
    return names
  }

  private assemblyFunction(): AST.AssemblyFunctionDefinition {
    const first = this.expect('function')
    const name = this.identifierToken().text
    this.expect('(')
    const args: AST.Identifier[] = []
    while (!this.is(')')) {
      args.push(this.identifier())
      if (!this.eat(',')) break
    }
    this.expect(')')
    const returnArguments: AST.Identifier[] = []
    if (this.eat('->')) {
      do returnArguments.push(this.identifier())
      while (this.eat(','))
    }
    const body = this.assemblyBlock()
    return { type: 'AssemblyFunctionDefinition', name, arguments: args, returnArguments, body, ...this.meta(first) }
  }

  private assemblySwitch(): AST.AssemblySwitch {
    const first = this.expect('switch')
    const expression = this.assemblyExpression()
    const cases: AST.AssemblyCase[] = []
    for (;;) {
      const start = this.tok
      if (this.eat('case')) {
        const value = this.assemblyLiteral()
        const block = this.assemblyBlock()
        cases.push({ type: 'AssemblyCase', block, value, default: false, ...this.meta(start) })
      } else if (this.eat('default')) {
        const block = this.assemblyBlock()
        cases.push({ type: 'AssemblyCase', block, value: null, default: true, ...this.meta(start) })
      } else break
    }
    return { type: 'AssemblySwitch', expression, cases, ...this.meta(first) }
  }

  private assemblyLiteral(): AST.AssemblyLiteral {
    const first = this.tok
    switch (first.kind) {
      case TokenKind.Number:
        this.pos++
        if (/^0[xX]/.test(first.text)) return { type: 'HexNumber', value: first.text, ...this.meta(first) }
        return { type: 'DecimalNumber', value: first.text, ...this.meta(first) }
      case TokenKind.String: {
        this.pos++
        const value = first.text.slice(1, -1)
        return { type: 'StringLiteral', value, parts: [value], isUnicode: [false], ...this.meta(first) }
      }
      case TokenKind.HexString: {
        this.pos++
        const value = first.text.slice(4, -1)
        return { type: 'HexLiteral', value, parts: [value], ...this.meta(first) }
      }
      case TokenKind.Identifier:
        if (first.text === 'true' || first.text === 'false') {
          this.pos++
          return { type: 'BooleanLiteral', value: first.text === 'true', ...this.meta(first) }
        }
    }
    this.fail('expected an assembly literal')
  }

  private assemblyExpression(): AST.AssemblyExpression {
    const first = this.tok
    if (first.kind !== TokenKind.Identifier || first.text === 'true' || first.text === 'false') return this.assemblyLiteral()
    this.pos++
    if (this.is('.') && this.peek().kind === TokenKind.Identifier && !this.is('(', this.peek(2))) {
      this.pos++
      const expression: AST.Identifier = { type: 'Identifier', name: first.text, ...this.meta(first) }
      const memberName = this.identifier()
      return { type: 'AssemblyMemberAccess', expression, memberName, ...this.meta(first) } as unknown as AST.AssemblyExpression
    }
    let functionName = first.text
    // Yul identifiers may contain dots (`usr.f`); keep them whole.
    while (this.is('.') && this.peek().kind === TokenKind.Identifier) {
      this.pos++
      functionName += '.' + this.identifierToken().text
    }
    const args: AST.AssemblyExpression[] = []
    if (this.eat('(')) {
      while (!this.is(')')) {
        args.push(this.assemblyExpression())
        if (!this.eat(',')) break
      }
      this.expect(')')
    }
    return { type: 'AssemblyCall', functionName, arguments: args, ...this.meta(first) }
  }
}

/** Turns the expression before `[]` (in `abi.decode(data, (Foo[]))`) into the type it names. */
function toTypeName(node: AST.Expression): AST.TypeName | null {
  switch (node.type) {
    case 'Identifier':
      return { type: 'UserDefinedTypeName', namePath: node.name, loc: node.loc, range: node.range }
    case 'MemberAccess': {
      const base = toTypeName(node.expression)
      if (!base || base.type !== 'UserDefinedTypeName') return null
      const namePath = `${base.namePath}.${node.memberName}`
      return { type: 'UserDefinedTypeName', namePath, loc: node.loc, range: node.range }
    }
    case 'ElementaryTypeName':
    case 'ArrayTypeName':
    case 'Mapping':
    case 'FunctionTypeName':
    case 'UserDefinedTypeName':
      return node as AST.TypeName
    default:
      return null
  }
}

/** `>= 0.5.0  <0.7.0` → `>=0.5.0 <0.7.0`; other pragmas keep their text without whitespace. */
function normalizePragmaValue(name: string, raw: string): string {
  if (name !== 'solidity') return raw.replace(/\s+/g, '')
  const parts = raw.match(/\|\||(?:\^|~|>=|<=|>|<|=)?\s*[0-9xX*][0-9A-Za-z.*]*/g)
  return parts ? parts.map((p) => p.replace(/\s+/g, '')).join(' ') : raw.trim()
}
