// Traces of every round (docs/operations.md "Traces"): one span per round, a child per phase and, under each phase,
// one per model call after OpenTelemetry's GenAI semantic conventions (model asked and answering, tokens, cost,
// finish reason, error type), read from the SDK's in-memory exporter; exported over OTLP/HTTP to a collector on
// loopback when OTEL_EXPORTER_OTLP_ENDPOINT is set; and nothing recorded when it is not.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import type { EngineDeps } from '../../../src/domain/engine/context.ts';
import { PRESET_MODELS } from '../../../src/domain/engine/models/catalog.ts';
import { createModelProvider } from '../../../src/domain/engine/models/index.ts';
import { runRound, startRound } from '../../../src/domain/engine/pipeline.ts';
import { createTracing, tracingTo } from '../../../src/tracing.ts';
import { useTestApp } from '../../helpers/app.ts';
import { staffedCompany } from '../../helpers/companies.ts';
import { type FakeLlm, llmReply, roleOf, roundResponder, startFakeLlm } from '../../helpers/fake-llm.ts';

const t = useTestApp({ env: { COMPANY_GAS_BUDGET: '1000000000000' } });
let fake: FakeLlm;

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake?.close();
});

describe('spans of a round', () => {
  it('one per round, phase and model call, linked parent to child, with the GenAI attributes', async () => {
    const co = await staffedCompany(t, 4, { name: 'Traced Co' });
    const exporter = new InMemorySpanExporter();
    const tracing = tracingTo(exporter, 'ai-economy-test');
    const config = loadConfig({ LLM_BASE_URL: fake.url, LLM_MAX_RETRIES: '0' });
    const deps: EngineDeps = {
      ...t.container,
      tracer: tracing.tracer,
      models: createModelProvider(config, { tracer: tracing.tracer }),
    };
    fake.setDefault(
      roundResponder({
        overrides: {
          brief: () => llmReply.billed('A brief.', 0.0021, { prompt_tokens: 300, completion_tokens: 40 }),
          role: (r) => (roleOf(r) === 'CRO' ? llmReply.status(500) : llmReply.ok('{"proposals":[]}')),
        },
      }),
    );
    const round = await runRound(deps, await startRound(deps, co.id, 'MANUAL'));
    expect(round.status).toBe('COMPLETE');
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.filter((s) => s.name === name);
    const child = (parent: ReadableSpan) => (s: ReadableSpan) =>
      s.parentSpanContext?.spanId === parent.spanContext().spanId;

    const [roundSpan] = named('invoke_agent decision-round');
    expect(roundSpan).toBeDefined();
    expect(roundSpan!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'ai_economy.round.id': round.id,
      'ai_economy.company.id': co.id,
      'ai_economy.round.status': 'COMPLETE',
    });
    const phases = spans.filter(child(roundSpan!));
    expect(phases.map((s) => s.name)).toEqual([
      'phase context',
      'phase brief',
      'phase scrape',
      'phase roles',
      'phase synthesis',
      'phase extraction',
      'phase execution',
    ]);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);

    const brief = phases.find((s) => s.name === 'phase brief')!;
    const [call] = spans.filter(child(brief));
    expect(call!.name).toBe(`chat ${PRESET_MODELS.BALANCED.briefGeneration}`);
    expect(call!.kind).toBe(2); // CLIENT
    expect(call!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'gcp.gemini',
      'gen_ai.request.model': PRESET_MODELS.BALANCED.briefGeneration,
      'gen_ai.response.model': PRESET_MODELS.BALANCED.briefGeneration,
      'gen_ai.usage.input_tokens': 300,
      'gen_ai.usage.output_tokens': 40,
      'ai_economy.cost_usd': 0.0021,
      'gen_ai.conversation.id': round.id,
      'ai_economy.company.id': co.id,
      'gen_ai.response.finish_reasons': ['stop'],
      'server.address': '127.0.0.1',
    });
    // No prompt and no key in any span.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('chief of staff');

    const roles = phases.find((s) => s.name === 'phase roles')!;
    const calls = spans.filter(child(roles));
    expect(calls).toHaveLength(7);
    const failed = calls.filter((s) => s.status.code === 2);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.attributes['error.type']).toBe('500');
    expect(failed[0]!.attributes['ai_economy.agent.role']).toBe('CRO');
    // The decided action ran as an execute_tool span under the execution phase.
    const execution = phases.find((s) => s.name === 'phase execution')!;
    const [action] = spans.filter(child(execution));
    expect(action!.name).toBe('execute_tool publish_update');
    expect(action!.attributes).toMatchObject({ 'gen_ai.conversation.id': round.id, 'ai_economy.agent.role': 'CMO' });
    await tracing.shutdown();
  });
});

describe('export', () => {
  it('sends the spans over OTLP/HTTP to the collector OTEL_EXPORTER_OTLP_ENDPOINT names', async () => {
    const received: { path: string; body: string }[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    try {
      const { port } = collector.address() as AddressInfo;
      const config = loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_SERVICE_NAME: 'engine-test',
      });
      expect(config.otlpTracesUrl).toBe(`http://127.0.0.1:${port}/v1/traces`);
      const tracing = createTracing(config);
      tracing.tracer.startSpan('chat openai/gpt-5-mini').end();
      await tracing.shutdown();
      expect(received).toHaveLength(1);
      expect(received[0]!.path).toBe('/v1/traces');
      expect(received[0]!.body).toContain('chat openai/gpt-5-mini');
      expect(received[0]!.body).toContain('engine-test');
    } finally {
      collector.close();
    }
  });

  it('records nothing without an endpoint', () => {
    const config = loadConfig({});
    expect(config.otlpTracesUrl).toBeUndefined();
    const span = createTracing(config).tracer.startSpan('chat x');
    expect(span.isRecording()).toBe(false);
    span.end();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom' }).otlpTracesUrl).toBe(
      'http://collector:4318/custom',
    );
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' })).toThrow(/http:, https:/);
  });
});
