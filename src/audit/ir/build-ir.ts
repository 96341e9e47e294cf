import type { LoadedProject } from '../load/load-project.ts'
import type * as AST from '../parse/ast.ts'
import { linearize } from './linearize.ts'
import { ProjectScope } from './scope.ts'
import type {
  ContractIr,
  ContractKind,
  FunctionIr,
  Mutability,
  NodeInfo,
  ProjectIr,
  SourceFileIr,
  StateVariableIr,
  Visibility,
} from './types.ts'
import { effectiveVersions, syntaxVersions } from './syntax-versions.ts'
import { versionRange } from './version.ts'
import { emptyFacts, FunctionWalker } from './walk-function.ts'

/**
 * Builds the IR of a loaded project: files, contracts (bases resolved, C3-linearised), state
 * variables with their types, functions and modifiers with their facts. Files that did not parse
 * are left out. Pure: reads nothing but the loaded project.
 */
export function buildIr(project: LoadedProject): { ir: ProjectIr; scope: ProjectScope; errors: { file: string; message: string }[] } {
  const errors: { file: string; message: string }[] = []
  const files: SourceFileIr[] = []
  const byLoaded = new Map<LoadedProject['files'][number], SourceFileIr>()
  for (const loaded of project.files) {
    if (!loaded.ast) continue
    const pragmas = loaded.ast.children.filter((c): c is AST.PragmaDirective => c.type === 'PragmaDirective')
    const solidity = pragmas.filter((p) => p.name === 'solidity')
    let compiler = null
    for (const pragma of solidity) {
      const range = versionRange(pragma.value)
      if (!range) continue
      compiler = compiler === null ? range : { min: Math.max(compiler.min, range.min), max: Math.min(compiler.max, range.max), pinned: compiler.pinned || range.pinned }
    }
    const file: SourceFileIr = {
      absolutePath: loaded.absolutePath,
      path: loaded.path,
      source: loaded.source,
      own: loaded.own,
      lines: loaded.lines,
      ast: loaded.ast,
      pragmas,
      compiler,
      versions: effectiveVersions(compiler, syntaxVersions(loaded.ast).range),
      contracts: [],
      attachedFunctions: attachedFunctions(loaded.ast),
    }
    files.push(file)
    byLoaded.set(loaded, file)
  }

  const contracts: ContractIr[] = []
  for (const file of files) {
    for (const child of file.ast.children) {
      if (child.type !== 'ContractDefinition') continue
      const contract = createContract(child, file)
      file.contracts.push(contract)
      contracts.push(contract)
    }
  }

  const scope = new ProjectScope(files, contracts)
  for (const loaded of project.files) {
    const file = byLoaded.get(loaded)
    if (!file) continue
    const imports: { file: SourceFileIr; directive: AST.ImportDirective }[] = []
    for (const { directive, resolved } of loaded.imports) {
      const target = resolved ? byLoaded.get(resolved) : undefined
      if (target) imports.push({ file: target, directive })
    }
    scope.imports.set(file, imports)
  }

  for (const contract of contracts) {
    for (const base of contract.bases) {
      const resolved = scope.resolveContract(base.name, contract.file)
      base.contract = resolved && resolved !== contract ? resolved : null
    }
  }
  for (const contract of contracts) {
    contract.linearization = linearize(contract, (c) => c.bases.map((b) => b.contract).filter((b): b is ContractIr => b !== null))
  }

  for (const contract of contracts) {
    for (const sub of contract.node.subNodes) {
      if (sub.type !== 'StateVariableDeclaration') continue
      const declaration = sub as AST.StateVariableDeclaration
      for (const variable of declaration.variables) {
        const visibility = variable.visibility === 'public' || variable.visibility === 'private' ? variable.visibility : 'internal'
        const state: StateVariableIr = {
          name: variable.name ?? '',
          contract,
          node: variable,
          declaration,
          type: scope.resolveTypeName(variable.typeName, contract, contract.file),
          isConstant: variable.isDeclaredConst === true,
          isImmutable: variable.isImmutable === true,
          visibility,
          initialValue: variable.expression,
        }
        contract.stateVariables.push(state)
      }
    }
  }

  const functions: FunctionIr[] = []
  const freeFunctions: FunctionIr[] = []
  for (const contract of contracts) {
    for (const sub of contract.node.subNodes) {
      if (sub.type === 'FunctionDefinition') {
        const fn = createFunction(sub as AST.FunctionDefinition, contract, contract.file)
        contract.functions.push(fn)
        functions.push(fn)
      } else if (sub.type === 'ModifierDefinition') {
        const fn = createModifier(sub as AST.ModifierDefinition, contract)
        contract.modifiers.push(fn)
        functions.push(fn)
      }
    }
  }
  for (const file of files) {
    for (const child of file.ast.children) {
      if (child.type !== 'FunctionDefinition') continue
      const fn = createFunction(child, null, file)
      fn.visibility = 'internal'
      freeFunctions.push(fn)
      functions.push(fn)
      scope.registerFreeFunction(fn)
    }
  }

  for (const fn of functions) {
    if (fn.node.type !== 'FunctionDefinition' || !fn.contract) continue
    for (const invocation of fn.node.modifiers) {
      const modifier = scope.modifier(fn.contract, invocation.name)
      fn.modifierCalls.push({ node: invocation, name: invocation.name, modifier })
    }
  }

  const info = new Map<AST.BaseASTNode, NodeInfo>()
  let branchCounter = 0
  const context = { scope, info, nextBranchId: () => ++branchCounter }
  for (const fn of functions) {
    try {
      fn.facts = new FunctionWalker(context, fn).run()
    } catch (error) {
      // A pathological body (an expression nested thousands deep) must not sink the whole analysis.
      fn.facts = emptyFacts()
      const where = `${fn.contract ? `${fn.contract.name}.` : ''}${fn.name}`
      errors.push({ file: fn.file.path, message: `line ${fn.node.loc?.start.line ?? '?'}: ${where} could not be analysed: ${error instanceof Error ? error.message : String(error)}` })
      continue
    }
    for (const call of fn.facts.calls) {
      // The walker decided already for calls made in assembly.
      if (call.assembly) continue
      let parent = info.get(call.node)?.parent ?? null
      while (parent && parent.type === 'TupleExpression' && (parent as AST.TupleExpression).components.length === 1) {
        parent = info.get(parent)?.parent ?? null
      }
      call.resultUsed = parent?.type !== 'ExpressionStatement'
    }
  }

  const ir: ProjectIr = {
    root: project.root,
    files,
    contracts,
    freeFunctions,
    info: (node) => info.get(node),
  }
  return { ir, scope, errors }
}

/** The functions `using {f, L.g} for T` directives attach, at file level and in contracts, by name. */
function attachedFunctions(ast: AST.SourceUnit): string[] {
  const names: string[] = []
  const collect = (using: AST.UsingForDeclaration): void => {
    for (const f of using.functions) names.push(f.split('.').pop() ?? f)
  }
  for (const child of ast.children) {
    if (child.type === 'UsingForDeclaration') collect(child)
    if (child.type === 'ContractDefinition') for (const sub of child.subNodes) if (sub.type === 'UsingForDeclaration') collect(sub as AST.UsingForDeclaration)
  }
  return names
}

function createContract(node: AST.ContractDefinition, file: SourceFileIr): ContractIr {
  const kind: ContractKind =
    node.kind === 'interface' ? 'interface' : node.kind === 'library' ? 'library' : node.kind === 'abstract' ? 'abstract' : 'contract'
  const contract: ContractIr = {
    name: node.name,
    kind,
    file,
    node,
    bases: node.baseContracts.map((b) => ({ name: b.baseName.namePath, contract: null, node: b })),
    linearization: [],
    stateVariables: [],
    functions: [],
    modifiers: [],
    events: [],
    structs: [],
    enums: [],
    errors: [],
    usingFor: [],
  }
  for (const sub of node.subNodes) {
    switch (sub.type) {
      case 'EventDefinition':
        contract.events.push(sub as AST.EventDefinition)
        break
      case 'StructDefinition':
        contract.structs.push(sub as AST.StructDefinition)
        break
      case 'EnumDefinition':
        contract.enums.push(sub as AST.EnumDefinition)
        break
      case 'CustomErrorDefinition':
        contract.errors.push(sub as AST.CustomErrorDefinition)
        break
      case 'UsingForDeclaration': {
        const using = sub as AST.UsingForDeclaration
        if (using.libraryName) contract.usingFor.push({ library: using.libraryName, typeName: using.typeName ? typeNameText(using.typeName) : null })
        break
      }
    }
  }
  return contract
}

function typeNameText(typeName: AST.TypeName): string {
  switch (typeName.type) {
    case 'ElementaryTypeName':
      return typeName.name
    case 'UserDefinedTypeName':
      return typeName.namePath
    case 'ArrayTypeName':
      return `${typeNameText(typeName.baseTypeName)}[]`
    case 'Mapping':
      return 'mapping'
    default:
      return 'function'
  }
}

function createFunction(node: AST.FunctionDefinition, contract: ContractIr | null, file: SourceFileIr): FunctionIr {
  const kind = node.isConstructor ? 'constructor' : node.isReceiveEther ? 'receive' : node.isFallback ? 'fallback' : 'function'
  let visibility: Visibility = node.visibility === 'default' ? 'public' : node.visibility
  if ((kind === 'fallback' || kind === 'receive') && node.visibility === 'default') visibility = 'external'
  const mutability: Mutability =
    node.stateMutability === 'constant' || node.stateMutability === 'view'
      ? 'view'
      : node.stateMutability === 'pure'
        ? 'pure'
        : node.stateMutability === 'payable'
          ? 'payable'
          : 'nonpayable'
  return {
    name: kind === 'function' ? (node.name ?? '') : kind,
    kind,
    contract,
    file,
    node,
    visibility,
    mutability,
    isVirtual: node.isVirtual,
    isOverride: node.override !== null,
    isDeclaredConstant: node.stateMutability === 'constant',
    params: node.parameters,
    returns: node.returnParameters ?? [],
    body: node.body,
    modifierCalls: [],
    facts: emptyFacts(),
  }
}

function createModifier(node: AST.ModifierDefinition, contract: ContractIr): FunctionIr {
  return {
    name: node.name,
    kind: 'modifier',
    contract,
    file: contract.file,
    node,
    visibility: 'internal',
    mutability: 'nonpayable',
    isVirtual: node.isVirtual,
    isOverride: (node.override ?? null) !== null,
    isDeclaredConstant: false,
    params: node.parameters ?? [],
    returns: [],
    body: node.body,
    modifierCalls: [],
    facts: emptyFacts(),
  }
}
