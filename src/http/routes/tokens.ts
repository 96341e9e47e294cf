import { Type, type Static } from '@sinclair/typebox'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { InputError, NotFoundError, UnsupportedChainError } from '../../errors.ts'
import { conditionalGet, etagOf } from '../conditional.ts'
import { clientDisconnectSignal, withDeadline } from '../deadline.ts'
import { errorResponses } from '../schemas/responses.ts'
import { SOLANA_VALUE_MESSAGES, schemaErrorFormatterWith } from '../errors.ts'
import type { ColdAdmission, EvmReportService, SolanaReportService } from '../../contract/services.ts'
import { DEFAULT_REPORT_FORMAT, REPORT_FORMATS, isHostedFormat, type ReportFormat } from '../../contract/report-formats.ts'
import { NOT_SUPPORTED_ERROR_STATUS, type NotSupportedBody } from '../../contract/common.ts'
import { SolanaReport } from '../../contract/solana-report.ts'
import { TokenReport } from '../../contract/token-report.ts'
import { quillcheckV2View } from '../../report/views/quillcheck-v2.ts'
import { quillcheckDescriptionView } from '../../report/views/quillcheck-description.ts'

/** The media type of every JSON answer (Fastify leaves it unset when a route sets its own serializer). */
const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * The hosted service's views mix numbers, booleans and "" in one field (unknown stays ""): plain
 * JSON serialization writes them as the view built them, where a schema-driven serializer would
 * have to test each union at run time.
 */
const serializePlain = (body: unknown): string => JSON.stringify(body)
/** A body already written: sent as it is. */
const asWritten = (body: unknown): string => body as string
const gzipAsync = promisify(gzip)

/** Whether an `Accept-Encoding` header takes gzip (`gzip`, `x-gzip` or `*`, without `q=0`). */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  return header
    .toLowerCase()
    .split(',')
    .some((part) => {
      const [coding, ...params] = part.split(';').map((p) => p.trim())
      const q = params.find((p) => p.startsWith('q='))
      return (coding === 'gzip' || coding === 'x-gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0)
    })
}

/**
 * The answers written of a report, per view, with their `ETag` (and gzipped, once asked so): a
 * report served from the in-process cache is the same object each time, so a cached answer costs
 * no serialization, no hashing and no compression — it does not wait behind cold work for the
 * serving thread's time or the thread pool's. Dropped with the report when the cache drops it.
 */
interface WrittenAnswer {
  body: string
  etag: string
  /** The body gzipped, once a client that takes gzip asked for it. */
  gzipped?: Promise<Buffer>
}

function createWrittenAnswers() {
  const written = new WeakMap<object, Map<string, WrittenAnswer>>()
  return (report: object, view: string, write: () => string): WrittenAnswer => {
    let views = written.get(report)
    if (!views) written.set(report, (views = new Map()))
    let answer = views.get(view)
    if (!answer) {
      const body = write()
      views.set(view, (answer = { body, etag: etagOf(body) }))
    }
    return answer
  }
}

export interface TokenRouteDeps {
  evm: EvmReportService
  solana: SolanaReportService
  requestTimeoutMs: number
  cacheTtlSeconds: number
  /** The view of a key without a format of its own, and of a request without `format` (`DEFAULT_FORMAT`). */
  defaultFormat?: ReportFormat
  /** Answers from this size on are sent gzipped to the clients that take it (the app's compression threshold). */
  compressFromBytes: number
  /** With open pages: the budget a page session's (anonymous) cold report draws on; a refusal is a 429. */
  anonymousCold?: ColdAdmission
}

const CHECK_SEMANTICS =
  'Every code check is `{description, risk, status, comment}`: status "1" means the risky capability is present, "0" that it was measured ' +
  'and is absent, "" that it could not be determined — then `risk` is "" and `comment` is "not determinable: <reason>". `comment` says how ' +
  'the check was decided (simulated, bytecode, state) and the evidence. Every scalar is a string, and "" means unknown — flags such as ' +
  '`isPairHoneypot` and `isContract` included. `tokenScore.checksPerformed` of `checksTotal` says how many checks were decided; unknown ' +
  'ones count in no score. When the node fails the reads or the simulation, the answer is a 503 with `Retry-After`, never a report that ' +
  'reads safer than the token is. See docs/checks.md and docs/scoring.md.'

/** The one `format` parameter of every token route, validated alike everywhere (`format must be one of …`). */
const Format = Type.Optional(
  Type.String({
    enum: [...REPORT_FORMATS],
    description:
      'the view: `v1`, the API contract\'s, or `quillcheck-v2`, the hosted QuillCheck service\'s, which its public clients read (docs/compat.md, "Formats"). ' +
      'Without it, the API key\'s own format (`tokenrisk keys create --format`), else the instance\'s `DEFAULT_FORMAT` (`v1` unless set). Any other value is a 400.',
  }),
)

const EvmParams = Type.Object({
  tokenAddress: Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: 'token contract address: 0x + 40 hex characters, all lowercase, all uppercase, or mixed case with a correct EIP-55 checksum (a wrong one is a 400)',
  }),
})
const ChainId = Type.String({ pattern: '^[0-9]{1,12}$', description: 'decimal chain id; GET /api/v1/chains lists the supported chains' })
const EvmQuery = Type.Object({ chainId: ChainId, format: Format })

/** The report widgets' parameters: accepted; the path alone selects the description shape. */
const Flag = (description: string) => Type.Optional(Type.String({ enum: ['true', 'false'], description }))
const WidgetParams = {
  distinctId: Type.Optional(Type.String({ maxLength: 200, description: 'the widget\'s analytics id: accepted and not used (nothing is tracked)' })),
  generateGptInput: Flag('accepted and not used: tokenrisk writes no text for a language model'),
  generateChecksDescription: Flag('accepted: the answer is the description shape (`codeCheckDescription`, `marketCheckDescription`) either way, as the widgets read it'),
}
const WidgetQuery = Type.Object({ chainId: ChainId, ...WidgetParams, format: Format })

const SolanaParams = Type.Object({
  tokenAddress: Type.String({ minLength: 1, maxLength: 64, description: 'mint address, base58 of 32 bytes' }),
})
/** The Solana path takes the widgets' parameters too (its widget sends them). */
const SolanaQuery = Type.Object({ ...WidgetParams, format: Format })

const FORMAT_NOTE =
  'The answer\'s view is the `format` parameter, else the API key\'s own format (`tokenrisk keys create --format`), else the instance\'s `DEFAULT_FORMAT` ' +
  '(`v1`, the contract\'s `TokenReport`, unless set). `quillcheck-v2` (`QuillcheckV2Report`) writes numbers, booleans and `{riskRating, riskStatus}` ' +
  'where public clients of the hosted service compute, and "" where a value could not be determined; like the hosted service, it answers an address ' +
  'that is not a supported token (no contract, not a token, a chain this instance does not serve) with a 200 `{errorStatus: 420, message}` (`NotSupported`), ' +
  'where `v1` answers 404 (or 400 for the chain). docs/compat.md.'

const NOT_SUPPORTED_NOTE = 'or, for an address that is not a supported token, `NotSupported`: `{errorStatus: 420, message}`'

/** Whether an engine's error says the address is not a token this instance supports (no contract or mint, not a token, a chain not served). */
function isNotSupported(error: unknown): error is NotFoundError | UnsupportedChainError {
  return error instanceof NotFoundError || error instanceof UnsupportedChainError
}

/** The hosted service's answer for an address that is not a supported token: a 200 clients read `errorStatus` of. */
function sendNotSupported(reply: FastifyReply, error: NotFoundError | UnsupportedChainError) {
  const body: NotSupportedBody = { errorStatus: NOT_SUPPORTED_ERROR_STATUS, message: error.message }
  return reply.type(JSON_TYPE).serializer(serializePlain).send(body)
}

export function tokenRoutes(app: FastifyInstance, deps: TokenRouteDeps) {
  const onSend = conditionalGet(deps.cacheTtlSeconds)
  const writtenOf = createWrittenAnswers()
  /** Sends the answer of `report` in `view`, written (and gzipped) once per report and view. */
  const sendWritten = async (request: FastifyRequest, reply: FastifyReply, report: object, view: string, write: () => string) => {
    const answer = writtenOf(report, view, write)
    reply.type(JSON_TYPE).header('etag', answer.etag)
    if (answer.body.length >= deps.compressFromBytes && acceptsGzip(request.headers['accept-encoding']) && request.headers['x-no-compression'] === undefined) {
      const gzipped = await (answer.gzipped ??= gzipAsync(answer.body))
      return reply.header('content-encoding', 'gzip').header('vary', 'x-api-key, accept-encoding').send(gzipped)
    }
    return reply.serializer(asWritten).send(answer.body)
  }
  const defaultFormat = deps.defaultFormat ?? DEFAULT_REPORT_FORMAT
  /** The view of a request: its `format`, else its key's own, else the instance's. */
  const formatOf = (request: FastifyRequest<{ Querystring: { format?: ReportFormat } }>): ReportFormat =>
    request.query.format ?? request.principal?.format ?? defaultFormat
  const chainIdOf = (raw: string): number => {
    const chainId = Number(raw)
    if (!Number.isSafeInteger(chainId) || chainId < 1) throw new InputError('chainId must be a decimal chain id such as 1, 56 or 31337')
    return chainId
  }
  /** What a request's cold report draws on: an anonymous one (a page session's, no key) the open pages' budget. */
  const coldOf = (request: FastifyRequest): ColdAdmission | undefined => (request.principal ? undefined : deps.anonymousCold)
  /** The EVM report, by the request's deadline (counted from its arrival; the work stops early enough for the answer to be written by then). */
  const evmReport = (request: FastifyRequest, reply: FastifyReply, chainId: number, address: string) =>
    withDeadline(
      deps.requestTimeoutMs,
      clientDisconnectSignal(reply.raw),
      (signal, deadlineAt) => deps.evm.report(chainId, address, { signal, deadlineAt, onCold: coldOf(request) }),
      { elapsedMs: reply.elapsedTime, reserveAnswer: true },
    )

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
          200: Type.Union([Type.Ref('TokenReport'), Type.Ref('QuillcheckV2Report'), Type.Ref('NotSupported')], {
            description: `the report in the view asked for: \`TokenReport\` (v1) or \`QuillcheckV2Report\` (quillcheck-v2); with quillcheck-v2, ${NOT_SUPPORTED_NOTE}`,
          }),
          ...errorResponses(304, 400, 401, 404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const chainId = chainIdOf(request.query.chainId)
      const format = formatOf(request)
      // The same URL answers each key in its own format: caches must tell keys apart.
      reply.header('vary', 'x-api-key')
      let report: TokenReport
      try {
        report = await evmReport(request, reply, chainId, request.params.tokenAddress)
      } catch (error) {
        if (isHostedFormat(format) && isNotSupported(error)) return sendNotSupported(reply, error)
        throw error
      }
      // Each format has its own serializer: the route's single response schema names them all.
      if (format === 'quillcheck-v2') return sendWritten(request, reply, report, format, () => serializePlain(quillcheckV2View(report)))
      return sendWritten(request, reply, report, format, () => reply.compileSerializationSchema(TokenReport)(report))
    },
  )

  // The hosted service's report widgets: the description shape (its Solana body's) for EVM tokens.
  for (const [path, operationId, which] of [
    ['/api/v1/tokens/frontend/information/:tokenAddress', 'getEvmTokenDescription', 'the current report widget'],
    ['/api/v1/tokens/ui/information/:tokenAddress', 'getEvmTokenDescriptionUi', 'the older report widget'],
  ] as const) {
    app.get<{ Params: Static<typeof EvmParams>; Querystring: Static<typeof WidgetQuery> & { format?: ReportFormat } }>(
      path,
      {
        config: { auth: true },
        onSend,
        schema: {
          operationId,
          tags: ['tokens'],
          summary: `Risk report of an EVM token in the description shape (the path ${which} of the hosted service calls)`,
          description:
            'The same report as `/api/v1/tokens/information/{tokenAddress}`, in the description shape the hosted service\'s report widgets read for EVM tokens: ' +
            'the sections and keys of its Solana body (`QuillcheckDescriptionReport`; docs/compat.md). Scores, counts, percents and risk numbers are JSON numbers; ' +
            '"" means unknown (a risk number is then 3, Neutral); `ownerAddress` is "Renounced" for a renounced owner. Like the hosted service, an address that ' +
            'is not a supported token answers 200 with `{errorStatus: 420, message}` (`NotSupported`), whatever the format. The widgets\' parameters are accepted; ' +
            '`format` is validated as on every token route, and the path alone selects the shape. When the node fails, the answer is a 503 with `Retry-After`.',
          security: [{ apiKey: [] }],
          params: EvmParams,
          querystring: WidgetQuery,
          response: {
            200: Type.Union([Type.Ref('QuillcheckDescriptionReport'), Type.Ref('NotSupported')], {
              description: `the report in the description shape, ${NOT_SUPPORTED_NOTE}`,
            }),
            ...errorResponses(304, 400, 401, 429, 503),
          },
        },
      },
      async (request, reply) => {
        const chainId = chainIdOf(request.query.chainId)
        reply.header('vary', 'x-api-key')
        let report: TokenReport
        try {
          report = await evmReport(request, reply, chainId, request.params.tokenAddress)
        } catch (error) {
          if (isNotSupported(error)) return sendNotSupported(reply, error)
          throw error
        }
        const chainName = deps.evm.chains().find((c) => c.chainId === chainId)?.name ?? ''
        return sendWritten(request, reply, report, 'description', () => serializePlain(quillcheckDescriptionView(report, { chainId, chainName })))
      },
    )
  }

  app.get<{ Params: Static<typeof SolanaParams>; Querystring: Static<typeof SolanaQuery> & { format?: ReportFormat } }>(
    '/api/v1/tokens/solana/:tokenAddress',
    {
      config: { auth: true, page: true },
      onSend,
      schemaErrorFormatter: schemaErrorFormatterWith(SOLANA_VALUE_MESSAGES),
      schema: {
        operationId: 'getSolanaTokenInformation',
        tags: ['tokens'],
        summary: 'Risk report of a Solana token (SPL Token or Token-2022 mint)',
        description:
          'Token report read from a Solana JSON-RPC: the mint, its authorities and extensions, metadata, holders and pools, in the Solana body the hosted service publishes (docs/compat.md). ' +
          'Scores, counts, percents and risk numbers are JSON numbers, `risk` a rating on the published scale (0 Critical … 6 Great To Have; 3 when unknown or not rated, what clients draw as neutral); ' +
          'every code check is an item `{heading, description, risk, tags, value}` with tokenrisk\'s `check`, `status` ("1" the risky capability is present, "0" measured absent, "" not determinable) ' +
          'and `comment`. "" means unknown; an authority no one holds reads "Renounced" (`ownerAddress`, `authorities`). The body is the same in every format (the contract defines no Solana shape); ' +
          'the format decides an unknown mint\'s answer: 404 in `v1`, 200 `{errorStatus: 420, message}` (`NotSupported`) in `quillcheck-v2`, as the hosted service answers. ' +
          'When the node fails the reads, the answer is a 503 with `Retry-After`. See docs/checks.md and docs/scoring.md.',
        security: [{ apiKey: [] }],
        params: SolanaParams,
        querystring: SolanaQuery,
        response: {
          200: Type.Union([Type.Ref('SolanaReport'), Type.Ref('NotSupported')], { description: `the Solana body, ${NOT_SUPPORTED_NOTE} (quillcheck-v2)` }),
          ...errorResponses(304, 400, 401, 404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const format = formatOf(request)
      reply.header('vary', 'x-api-key')
      let report: unknown
      try {
        report = await withDeadline(deps.requestTimeoutMs, clientDisconnectSignal(reply.raw), (signal) => deps.solana.report(request.params.tokenAddress, { signal, onCold: coldOf(request) }), {
          elapsedMs: reply.elapsedTime,
          reserveAnswer: true,
        })
      } catch (error) {
        if (isHostedFormat(format) && isNotSupported(error)) return sendNotSupported(reply, error)
        throw error
      }
      return sendWritten(request, reply, report as object, 'solana', () => reply.compileSerializationSchema(SolanaReport)(report as Record<string, unknown>))
    },
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
          ...errorResponses(401, 429, 503),
        },
      },
    },
    async () => ({ chains: deps.evm.chains().map((c) => ({ chainId: String(c.chainId), name: c.name, addressLink: c.addressLink ?? '' })) }),
  )
}
