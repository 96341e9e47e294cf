import { Type, type Static } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import { InputError } from '../../errors.ts'
import { conditionalGet } from '../conditional.ts'
import { clientDisconnectSignal, withDeadline } from '../deadline.ts'
import { errorResponses } from '../schemas/responses.ts'
import type { EvmReportService, SolanaReportService } from '../../contract/services.ts'
import { DEFAULT_REPORT_FORMAT, REPORT_FORMATS, type ReportFormat } from '../../contract/report-formats.ts'
import { TokenReport } from '../../contract/token-report.ts'
import { quillcheckV2View } from '../../report/views/quillcheck-v2.ts'
import type { QuillcheckV2Report } from '../../contract/quillcheck-v2.ts'

/**
 * The newer view mixes numbers, booleans and "" in one field (unknown stays ""): plain JSON
 * serialization writes it as the view built it, where a schema-driven serializer would have to
 * test each union at run time.
 */
const serializeV2 = (body: QuillcheckV2Report): string => JSON.stringify(body)

export interface TokenRouteDeps {
  evm: EvmReportService
  solana: SolanaReportService
  requestTimeoutMs: number
  cacheTtlSeconds: number
}

const CHECK_SEMANTICS =
  'Every code check is `{description, risk, status, comment}`: status "1" means the risky capability is present, "0" that it was measured ' +
  'and is absent, "" that it could not be determined — then `risk` is "" and `comment` is "not determinable: <reason>". `comment` says how ' +
  'the check was decided (simulated, bytecode, state) and the evidence. Every scalar is a string, and "" means unknown — flags such as ' +
  '`isPairHoneypot` and `isContract` included. `tokenScore.checksPerformed` of `checksTotal` says how many checks were decided; unknown ' +
  'ones count in no score. When the node fails the reads or the simulation, the answer is a 503 with `Retry-After`, never a report that ' +
  'reads safer than the token is. See docs/checks.md and docs/scoring.md.'

const EvmParams = Type.Object({
  tokenAddress: Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: 'token contract address: 0x + 40 hex characters, all lowercase, all uppercase, or mixed case with a correct EIP-55 checksum (a wrong one is a 400)',
  }),
})
const EvmQuery = Type.Object({
  chainId: Type.String({ pattern: '^[0-9]{1,12}$', description: 'decimal chain id; GET /api/v1/chains lists the supported chains' }),
  format: Type.Optional(
    Type.String({
      enum: [...REPORT_FORMATS],
      description:
        'shape of the answer: `v1` the contract\'s (`TokenReport`), `quillcheck-v2` the newer shape public clients read (`QuillcheckV2Report`, docs/compat.md). ' +
        'Without it, the format stored on the API key (`tokenrisk keys create --format`), else `v1`.',
    }),
  ),
})

const FORMAT_NOTE =
  'The answer\'s shape is the API key\'s format (`tokenrisk keys create --format quillcheck-v2`; `v1`, the contract\'s `TokenReport`, by default), ' +
  'or the `format` query parameter, which overrides it. `quillcheck-v2` (`QuillcheckV2Report`) writes numbers, booleans and `{riskRating, riskStatus}` ' +
  'where public clients of the hosted service compute, and "" where a value could not be determined (docs/compat.md).'
const SolanaParams = Type.Object({
  tokenAddress: Type.String({ minLength: 1, maxLength: 64, description: 'mint address, base58 of 32 bytes' }),
})

export function tokenRoutes(app: FastifyInstance, deps: TokenRouteDeps) {
  const onSend = conditionalGet(deps.cacheTtlSeconds)

  app.get<{ Params: Static<typeof EvmParams>; Querystring: Static<typeof EvmQuery> & { format?: ReportFormat } }>(
    '/api/v1/tokens/information/:tokenAddress',
    {
      config: { auth: true, page: true },
      onSend,
      schema: {
        operationId: 'getEvmTokenInformation',
        tags: ['tokens'],
        summary: 'Risk report of an EVM token',
        description: `Token report computed from the chain: facts read from its JSON-RPC, behaviour measured by simulation, bytecode read for the rest.\n\n${CHECK_SEMANTICS}\n\n${FORMAT_NOTE}`,
        security: [{ apiKey: [] }],
        params: EvmParams,
        querystring: EvmQuery,
        response: {
          200: Type.Union([Type.Ref('TokenReport'), Type.Ref('QuillcheckV2Report')], {
            description: 'the report in the format asked for: `TokenReport` (v1, the default) or `QuillcheckV2Report` (quillcheck-v2)',
          }),
          ...errorResponses(304, 400, 401, 404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const chainId = Number(request.query.chainId)
      if (!Number.isSafeInteger(chainId) || chainId < 1) throw new InputError('chainId must be a decimal chain id such as 1, 56 or 31337')
      const format: ReportFormat = request.query.format ?? request.principal?.format ?? DEFAULT_REPORT_FORMAT
      // The deadline counts from the request's arrival, and the work stops early enough for the answer to be written by then.
      const report = await withDeadline(
        deps.requestTimeoutMs,
        clientDisconnectSignal(reply.raw),
        (signal, deadlineAt) => deps.evm.report(chainId, request.params.tokenAddress, { signal, deadlineAt }),
        { elapsedMs: reply.elapsedTime, reserveAnswer: true },
      )
      // The same URL answers each key in its own format: caches must tell keys apart.
      reply.header('vary', 'x-api-key')
      // Each format has its own serializer: the route's single response schema names both.
      if (format === 'quillcheck-v2') return reply.serializer(serializeV2).send(quillcheckV2View(report))
      return reply.serializer(reply.compileSerializationSchema(TokenReport)).send(report)
    },
  )

  app.get<{ Params: Static<typeof SolanaParams> }>(
    '/api/v1/tokens/solana/:tokenAddress',
    {
      config: { auth: true, page: true },
      onSend,
      schema: {
        operationId: 'getSolanaTokenInformation',
        tags: ['tokens'],
        summary: 'Risk report of a Solana token (SPL Token or Token-2022 mint)',
        description: `Token report read from a Solana JSON-RPC: the mint, its authorities and extensions, metadata, holders and pools, in the Solana body the hosted service publishes (docs/compat.md). Scores, counts, percents and risk ratings are JSON numbers, \`risk\` a rating on the published scale (0 Critical … 6 Great To Have); every code check is an item \`{heading, description, risk, tags, value}\` with tokenrisk's \`check\`, \`status\` ("1" the risky capability is present, "0" measured absent, "" not determinable) and \`comment\`. "" means unknown. When the node fails the reads, the answer is a 503 with \`Retry-After\`. See docs/checks.md and docs/scoring.md.`,
        security: [{ apiKey: [] }],
        params: SolanaParams,
        response: { 200: Type.Ref('SolanaReport'), ...errorResponses(304, 400, 401, 404, 429, 503) },
      },
    },
    async (request, reply) =>
      withDeadline(deps.requestTimeoutMs, clientDisconnectSignal(reply.raw), (signal) => deps.solana.report(request.params.tokenAddress, { signal }), {
        elapsedMs: reply.elapsedTime,
        reserveAnswer: true,
      }),
  )

  app.get(
    '/api/v1/chains',
    {
      config: { auth: true, page: true },
      schema: {
        operationId: 'listChains',
        tags: ['tokens'],
        summary: 'EVM chains this instance serves (valid `chainId` values)',
        security: [{ apiKey: [] }],
        response: {
          200: Type.Object({
            chains: Type.Array(
              Type.Object({
                chainId: Type.String(),
                name: Type.String(),
                addressLink: Type.String({ description: 'the chain\'s block explorer page of an address, `{address}` to replace (`links.explorerAddress` of docs/chains.md); "" when none is configured' }),
              }),
            ),
          }),
          ...errorResponses(401, 429),
        },
      },
    },
    async () => ({ chains: deps.evm.chains().map((c) => ({ chainId: String(c.chainId), name: c.name, addressLink: c.addressLink ?? '' })) }),
  )
}
