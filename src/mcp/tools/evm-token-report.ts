import { Type } from '@sinclair/typebox'
import { DEFAULT_REPORT_FORMAT, REPORT_FORMATS, isReportFormat } from '../../contract/report-formats.ts'
import type { EvmReportService } from '../../contract/services.ts'
import { InputError, NotConfiguredError } from '../../errors.ts'
import { evmVerdict, verdictLines } from '../../report/verdict.ts'
import { evmConcise, FullArgument } from './token-answer.ts'
import { quillcheckV2View } from '../../report/views/quillcheck-v2.ts'
import { defineTool } from '../define-tool.ts'

/** The messages the HTTP API gives for a chain id that is not one, and for an unknown format. */
const CHAIN_ID_MESSAGE = 'chainId must be a decimal chain id such as 1, 56 or 31337'
const FORMAT_MESSAGE = `format must be one of ${REPORT_FORMATS.join(', ')}`

const Input = Type.Object({
  chainId: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]{1,12}$' })], {
    description: 'decimal chain id of the EVM chain the token lives on (1 Ethereum, 56 BNB Chain, …): one this tool\'s description lists',
  }),
  tokenAddress: Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: 'token contract address: 0x + 40 hex characters, all lowercase, all uppercase, or mixed case with a correct EIP-55 checksum',
  }),
  // An enum for the agent to read, checked in `run`: the argument checker does not read a string's `enum`.
  format: Type.Optional(
    Type.String({
      enum: [...REPORT_FORMATS],
      description:
        'shape of the full report (giving it asks for the full report): `v1` the API contract\'s (every scalar a string, "" unknown), `quillcheck-v2` the hosted QuillCheck service\'s, which its public clients read (numbers, booleans, `{riskRating, riskStatus}`); default: the API key\'s own format, else the instance\'s DEFAULT_FORMAT',
    }),
  ),
  full: FullArgument,
})

/**
 * `evm_token_report`: the risk report of an EVM token, as `GET /api/v1/tokens/information/{address}`
 * answers it, with its verdict first.
 */
export function evmTokenReportTool(evm: EvmReportService) {
  const chains = evm.chains().map((c) => `${c.chainId} (${c.name})`)
  return defineTool({
    name: 'evm_token_report',
    title: 'EVM token risk report',
    description: [
      'Risk report of an ERC-20 token on an EVM chain, measured on the chain itself: whether a holder can sell it (honeypot), its buy, sell and transfer taxes on each pool,',
      'what a privileged account can do (mint, change or take balances, pause transfers, blacklist, change taxes), who holds the supply, and whether the liquidity is locked.',
      'Call it before buying, swapping into, approving or recommending a token.',
      'The first text is the verdict to act on, its first word one of HONEYPOT, CANNOT SELL, OWNER CAN TAKE, OWNER CAN MINT, RISKY POWER, LIQUIDITY CAN BE PULLED, SUPPLY CONCENTRATED, TAXED, COULD NOT BE MEASURED, NO RISKY POWER FOUND (worst first; docs/scoring.md);',
      'what could not be measured is listed and is never a clean bill. The structured answer follows: by default the verdict and the facts to act on (a few KB), with full: true the whole report (docs/checks.md explains every check; "" means unknown).',
      `Chains served: ${chains.length > 0 ? chains.join(', ') : 'none configured'}. A report not computed recently takes a few seconds.`,
    ].join(' '),
    input: Input,
    hints: { readOnly: true, openWorld: true },
    invalid: {
      chainId: CHAIN_ID_MESSAGE,
      tokenAddress: 'tokenAddress must be an EVM address: 0x followed by 40 hexadecimal characters (20 bytes)',
      format: FORMAT_MESSAGE,
    },
    async run(args, context) {
      const chainId = Number(args.chainId)
      if (!Number.isSafeInteger(chainId) || chainId < 1) throw new InputError(CHAIN_ID_MESSAGE)
      if (args.format !== undefined && !isReportFormat(args.format)) throw new InputError(FORMAT_MESSAGE)
      const served = evm.chains()
      if (!served.some((c) => c.chainId === chainId)) {
        const list = served.map((c) => `${c.chainId} (${c.name})`).join(', ') || 'none'
        throw new NotConfiguredError(
          `chain ${chainId} is not served by this tokenrisk; it serves ${list}. To serve it, its operator sets RPC_URL_${chainId}=<JSON-RPC URL> (and adds the chain to a chains file, docs/chains.md, when tokenrisk does not know it); asking again changes nothing until then`,
          { setting: `RPC_URL_${chainId}` },
        )
      }
      const report = await context.bounded((signal, deadlineAt) => evm.report(chainId, args.tokenAddress, { signal, deadlineAt }))
      const format = args.format ?? context.caller.format ?? DEFAULT_REPORT_FORMAT
      const verdict = evmVerdict(report)
      const address = report.tokenInformation.tokenAddress
      const links = context.linkBase
        ? { page: `${context.linkBase}/t/${chainId}/${address}`, api: `${context.linkBase}/api/v1/tokens/information/${address}?chainId=${chainId}` }
        : undefined
      const lines = verdictLines(verdict)
      lines.splice(1, 0, `Token ${address} on chain ${chainId}${links ? `; its page: ${links.page}` : ''}.`)
      // The whole report when asked for (or a format of it is); else what an agent acts on.
      const full = args.full === true || args.format !== undefined
      const structured = full ? (format === 'quillcheck-v2' ? quillcheckV2View(report) : report) : evmConcise(report, verdict, chainId, links)
      return { verdict: lines.join('\n'), structured }
    },
  })
}
