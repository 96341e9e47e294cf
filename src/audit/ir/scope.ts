import type * as AST from '../parse/ast.ts'
import type { ContractIr, FunctionIr, SourceFileIr, StateVariableIr, TypeRef } from './types.ts'

const UNKNOWN: TypeRef = { kind: 'unknown' }

/** Solidity's aliases of elementary types, to their canonical names. */
const ELEMENTARY_ALIASES: Record<string, string> = { uint: 'uint256', int: 'int256', byte: 'bytes1', fixed: 'fixed128x18', ufixed: 'ufixed128x18' }

export function canonicalElementary(name: string, stateMutability: string | null = null): string {
  const canonical = ELEMENTARY_ALIASES[name] ?? name
  return canonical === 'address' && stateMutability === 'payable' ? 'address payable' : canonical
}

/**
 * Name and type resolution across the project: which contract, struct or enum a name means in a
 * file or contract, and the members (state variables, functions, modifiers, events) a contract
 * sees through its linearisation.
 */
export class ProjectScope {
  private readonly contractsByName = new Map<string, ContractIr[]>()
  private readonly fileSymbols = new Map<SourceFileIr, Map<string, ContractIr>>()
  private readonly fileStructs = new Map<string, AST.StructDefinition>()
  private readonly fileEnums = new Set<string>()
  private readonly valueTypes = new Map<string, string>()
  private readonly stateVariableCache = new Map<ContractIr, Map<string, StateVariableIr | null>>()
  private readonly functionCache = new Map<ContractIr, Map<string, FunctionIr[]>>()
  private readonly freeFunctionsByName = new Map<string, FunctionIr[]>()
  /** Each file's imports, resolved: filled by the builder before any lookup. */
  readonly imports = new Map<SourceFileIr, { file: SourceFileIr; directive: AST.ImportDirective }[]>()

  constructor(
    private readonly files: readonly SourceFileIr[],
    contracts: readonly ContractIr[],
  ) {
    for (const contract of contracts) {
      const list = this.contractsByName.get(contract.name)
      if (list) list.push(contract)
      else this.contractsByName.set(contract.name, [contract])
      for (const definition of contract.node.subNodes) {
        if (definition.type === 'TypeDefinition') {
          const typeDefinition = definition as AST.TypeDefinition
          this.valueTypes.set(typeDefinition.name, canonicalElementary(typeDefinition.definition.name))
        }
      }
    }
    for (const file of files) {
      for (const child of file.ast.children) {
        if (child.type === 'StructDefinition') this.fileStructs.set(child.name, child)
        else if (child.type === 'EnumDefinition') this.fileEnums.add(child.name)
        else if (child.type === 'TypeDefinition') this.valueTypes.set(child.name, canonicalElementary(child.definition.name))
      }
    }
  }

  registerFreeFunction(fn: FunctionIr): void {
    const list = this.freeFunctionsByName.get(fn.name)
    if (list) list.push(fn)
    else this.freeFunctionsByName.set(fn.name, [fn])
  }

  freeFunctions(name: string): FunctionIr[] {
    return this.freeFunctionsByName.get(name) ?? []
  }

  /** The contract a name (or `Alias.Name` path) denotes in `file`. */
  resolveContract(name: string, file: SourceFileIr): ContractIr | null {
    const symbols = this.symbolsOf(file)
    const direct = symbols.get(name)
    if (direct) return direct
    const dot = name.lastIndexOf('.')
    if (dot > 0) return this.resolveContract(name.slice(dot + 1), file)
    const candidates = this.contractsByName.get(name)
    if (!candidates || candidates.length === 0) return null
    return candidates.find((c) => c.file === file) ?? candidates.find((c) => c.file.own) ?? candidates[0]
  }

  /** Every global name a file sees: its own contracts and those it imports (transitively for plain imports). */
  private symbolsOf(file: SourceFileIr, visiting = new Set<SourceFileIr>()): Map<string, ContractIr> {
    const cached = this.fileSymbols.get(file)
    if (cached) return cached
    const symbols = new Map<string, ContractIr>()
    if (visiting.has(file)) return symbols
    visiting.add(file)
    for (const contract of file.contracts) symbols.set(contract.name, contract)
    for (const { file: imported, directive } of this.imports.get(file) ?? []) {
      const theirs = this.symbolsOf(imported, visiting)
      if (directive.symbolAliases) {
        for (const [symbol, alias] of directive.symbolAliases) {
          const contract = theirs.get(symbol)
          if (contract && !symbols.has(alias ?? symbol)) symbols.set(alias ?? symbol, contract)
        }
      } else if (directive.unitAlias) {
        for (const [name, contract] of theirs) if (!symbols.has(`${directive.unitAlias}.${name}`)) symbols.set(`${directive.unitAlias}.${name}`, contract)
      } else {
        for (const [name, contract] of theirs) if (!symbols.has(name)) symbols.set(name, contract)
      }
    }
    visiting.delete(file)
    if (visiting.size === 0) this.fileSymbols.set(file, symbols)
    return symbols
  }

  /** The type a type name denotes inside `contract` (or at file level). */
  resolveTypeName(typeName: AST.TypeName | null | undefined, contract: ContractIr | null, file: SourceFileIr): TypeRef {
    if (!typeName) return UNKNOWN
    switch (typeName.type) {
      case 'ElementaryTypeName':
        return { kind: 'elementary', name: canonicalElementary(typeName.name, typeName.stateMutability) }
      case 'ArrayTypeName':
        return { kind: 'array', base: this.resolveTypeName(typeName.baseTypeName, contract, file), dynamic: typeName.length === null }
      case 'Mapping':
        return {
          kind: 'mapping',
          key: this.resolveTypeName(typeName.keyType, contract, file),
          value: this.resolveTypeName(typeName.valueType, contract, file),
        }
      case 'FunctionTypeName':
        return { kind: 'function' }
      case 'UserDefinedTypeName':
        return this.resolveUserType(typeName.namePath, contract, file)
    }
    return UNKNOWN
  }

  resolveUserType(namePath: string, contract: ContractIr | null, file: SourceFileIr): TypeRef {
    const parts = namePath.split('.')
    const last = parts[parts.length - 1]
    if (parts.length > 1) {
      const owner = this.resolveContract(parts.slice(0, -1).join('.'), file)
      if (owner) {
        const member = this.memberType(owner, last)
        if (member) return member
      }
    }
    if (contract && parts.length === 1) {
      for (const c of contract.linearization) {
        const member = this.memberType(c, last)
        if (member) return member
      }
    }
    const valueType = this.valueTypes.get(last)
    if (valueType) return { kind: 'elementary', name: valueType }
    const struct = this.fileStructs.get(last)
    if (struct) return { kind: 'struct', name: last, definition: struct, owner: null }
    if (this.fileEnums.has(last)) return { kind: 'enum', name: last }
    const target = this.resolveContract(namePath, file)
    if (target) return { kind: 'contract', name: target.name, contract: target }
    return { kind: 'contract', name: last, contract: null }
  }

  private memberType(owner: ContractIr, name: string): TypeRef | null {
    const struct = owner.structs.find((s) => s.name === name)
    if (struct) return { kind: 'struct', name, definition: struct, owner }
    if (owner.enums.some((e) => e.name === name)) return { kind: 'enum', name }
    for (const definition of owner.node.subNodes) {
      if (definition.type === 'TypeDefinition' && (definition as AST.TypeDefinition).name === name) {
        return { kind: 'elementary', name: canonicalElementary((definition as AST.TypeDefinition).definition.name) }
      }
    }
    return null
  }

  /** The state variable `name` as seen from `contract` (most derived declaration first). */
  stateVariable(contract: ContractIr, name: string): StateVariableIr | null {
    let cache = this.stateVariableCache.get(contract)
    if (!cache) {
      cache = new Map()
      this.stateVariableCache.set(contract, cache)
    }
    if (cache.has(name)) return cache.get(name) ?? null
    let found: StateVariableIr | null = null
    for (const c of contract.linearization) {
      const variable = c.stateVariables.find((v) => v.name === name)
      if (variable) {
        found = variable
        break
      }
    }
    cache.set(name, found)
    return found
  }

  /** Functions named `name` visible in `contract`, most derived first. */
  functions(contract: ContractIr, name: string): FunctionIr[] {
    let cache = this.functionCache.get(contract)
    if (!cache) {
      cache = new Map()
      this.functionCache.set(contract, cache)
    }
    const cached = cache.get(name)
    if (cached) return cached
    const found: FunctionIr[] = []
    for (const c of contract.linearization) for (const fn of c.functions) if (fn.name === name && fn.kind === 'function') found.push(fn)
    cache.set(name, found)
    return found
  }

  /** The function a call by name with `argumentCount` arguments dispatches to in `contract`. */
  resolveFunction(contract: ContractIr, name: string, argumentCount: number): FunctionIr | null {
    const candidates = this.functions(contract, name)
    const withBody = candidates.filter((f) => f.params.length === argumentCount)
    return withBody.find((f) => f.body !== null) ?? withBody[0] ?? candidates.find((f) => f.body !== null) ?? candidates[0] ?? null
  }

  /** The function `super.name(...)` reaches from a function declared in `declaring`, seen from `context`. */
  resolveSuper(context: ContractIr, declaring: ContractIr, name: string, argumentCount: number): FunctionIr | null {
    const order = context.linearization
    const start = order.indexOf(declaring)
    for (let i = start + 1; i < order.length && start >= 0; i++) {
      const fn = order[i].functions.find((f) => f.name === name && f.kind === 'function' && f.params.length === argumentCount && f.body !== null)
      if (fn) return fn
    }
    return null
  }

  modifier(contract: ContractIr, name: string): FunctionIr | null {
    for (const c of contract.linearization) {
      const found = c.modifiers.find((m) => m.name === name && m.body !== null)
      if (found) return found
    }
    for (const c of contract.linearization) {
      const found = c.modifiers.find((m) => m.name === name)
      if (found) return found
    }
    return null
  }

  event(contract: ContractIr | null, name: string): AST.EventDefinition | null {
    if (!contract) return null
    for (const c of contract.linearization) {
      const found = c.events.find((e) => e.name === name)
      if (found) return found
    }
    return null
  }

  struct(contract: ContractIr | null, file: SourceFileIr, name: string): boolean {
    const type = this.resolveUserType(name, contract, file)
    return type.kind === 'struct'
  }

  /** Libraries attached with `using L for …` in `contract`'s hierarchy and at file level. */
  usingLibraries(contract: ContractIr | null, file: SourceFileIr): ContractIr[] {
    const libraries: ContractIr[] = []
    const add = (name: string): void => {
      const library = this.resolveContract(name, file)
      if (library && !libraries.includes(library)) libraries.push(library)
    }
    if (contract) for (const c of contract.linearization) for (const u of c.usingFor) add(u.library)
    for (const child of file.ast.children) {
      if (child.type === 'UsingForDeclaration' && child.libraryName) add(child.libraryName)
    }
    return libraries
  }

  allFiles(): readonly SourceFileIr[] {
    return this.files
  }
}
