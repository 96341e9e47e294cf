import { Type } from '@sinclair/typebox'
import type { SolanaReport } from '../../contract/solana-report.ts'
import type { SolanaReportService } from '../../contract/services.ts'
import { solanaVerdict, verdictLines } from '../../report/verdict.ts'
import { FullArgument, solanaConcise } from './token-answer.ts'
import { defineTool } from '../define-tool.ts'

const Input = Type.Object({
  // Its form is checked by the engine, whose messages say what is wrong with it.
  tokenAddress: Type.String({ description: 'mint address: base58 of 32 bytes (32 to 44 characters)' }),
  full: FullArgument,
})

/** `solana_token_report`: the risk report of a Solana mint, as `GET /api/v1/tokens/solana/{mint}` answers it, with its verdict first. */
export function solanaTokenReportTool(solana: SolanaReportService) {
  return defineTool({
    name: 'solana_token_report',
    title: 'Solana token risk report',
    description: [
      'Risk report of a Solana token (an SPL Token or Token-2022 mint), read from the chain: its authorities (mint, freeze, metadata update, permanent delegate),',
      'its Token-2022 extensions (transfer fee, transfer hook, pausable, non-transferable, default frozen accounts), whether a holder can sell it on its pools,',
      'who holds the supply and who holds its liquidity. Call it before buying, swapping into or recommending a Solana token.',
      'The first text is the verdict to act on, its first word one of HONEYPOT, CANNOT SELL, OWNER CAN TAKE, OWNER CAN MINT, RISKY POWER, LIQUIDITY CAN BE PULLED, SUPPLY CONCENTRATED, TAXED, COULD NOT BE MEASURED, NO RISKY POWER FOUND (worst first; docs/scoring.md);',
      'what could not be measured is listed and is never a clean bill. The structured answer follows: by default the verdict and the facts to act on (a few KB), with full: true the whole report in the Solana body of docs/compat.md ("" means unknown).',
    ].join(' '),
    input: Input,
    hints: { readOnly: true, openWorld: true },
    async run(args, context) {
      const report = (await context.bounded((signal) => solana.report(args.tokenAddress, { signal }))) as SolanaReport
      const verdict = solanaVerdict(report)
      const lines = verdictLines(verdict)
      const general = report.tokenInformation.generalInformation
      const mint = general.tokenAddress
      const links = context.linkBase ? { page: `${context.linkBase}/t/solana/${mint}`, api: `${context.linkBase}/api/v1/tokens/solana/${mint}` } : undefined
      lines.splice(1, 0, `Mint ${mint} (${general.tokenProgramName}) on ${general.chainName || 'Solana'}${links ? `; its page: ${links.page}` : ''}.`)
      return { verdict: lines.join('\n'), structured: args.full === true ? report : solanaConcise(report, verdict, links) }
    },
  })
}
