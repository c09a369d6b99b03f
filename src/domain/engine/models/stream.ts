// A streamed chat-completions answer (Server-Sent Events, `stream: true`), read as it arrives: each `data:` event's
// delta is added to the answer, comments (an OpenRouter `: OPENROUTER PROCESSING` keep-alive) and empty events are
// not progress, `data: [DONE]` ends it, and an `error` event ends it as the status it names. Once read, the answer
// is the same object a non-streamed answer is (`chat.completion`), so the engine judges both alike. The bytes
// read are bounded by the transport, like any answer's.

/** Characters of a streamed tool call's name or arguments kept at most (the answer's byte cap bounds the rest). */
const TOOL_TEXT_MAX = 64_000;

interface ToolCallDelta {
  index?: unknown;
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

/** Reads SSE text chunk by chunk; `feed` says whether the chunk carried any of the answer (a token, a tool call). */
export class StreamedAnswer {
  private buffer = '';
  private content = '';
  private refusal = '';
  private readonly calls: { id: string; name: string; arguments: string }[] = [];
  private finishReason: string | undefined;
  private usage: unknown;
  private model: string | undefined;
  private id: string | undefined;
  /** An `error` event's message and status (OpenRouter sends one mid-stream when its upstream fails). */
  error: { message: string; status: number | undefined } | undefined;
  /** `data: [DONE]` was read. */
  done = false;
  /** Events that were not JSON (counted; such an answer is malformed unless it still finished). */
  garbled = 0;

  /** Adds a chunk of the body; true when it moved the answer on (new text, a tool call, a finish, usage). */
  feed(text: string): boolean {
    this.buffer += text;
    let moved = false;
    for (;;) {
      const end = this.buffer.search(/\r?\n\r?\n/);
      if (end < 0) break;
      const event = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer[end] === '\r' ? 4 : 2));
      if (this.event(event)) moved = true;
    }
    return moved;
  }

  /** Ends the stream: an event left without its blank line is read too. */
  end(): void {
    if (this.buffer.trim() !== '') this.event(this.buffer);
    this.buffer = '';
  }

  private event(event: string): boolean {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') return false;
    if (data.trim() === '[DONE]') {
      this.done = true;
      return true;
    }
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(data) as Record<string, unknown>;
    } catch {
      this.garbled++;
      return false;
    }
    if (value === null || typeof value !== 'object') {
      this.garbled++;
      return false;
    }
    let moved = false;
    if (value.error && typeof value.error === 'object') {
      const err = value.error as { message?: unknown; code?: unknown };
      const code = Number(err.code);
      this.error = {
        message: typeof err.message === 'string' ? err.message : 'the stream ended with an error',
        status: Number.isInteger(code) && code >= 400 && code < 600 ? code : undefined,
      };
      moved = true;
    }
    if (typeof value.model === 'string') this.model ??= value.model;
    if (typeof value.id === 'string') this.id ??= value.id;
    if (value.usage && typeof value.usage === 'object') {
      this.usage = value.usage;
      moved = true;
    }
    const choice = Array.isArray(value.choices) ? (value.choices[0] as Record<string, unknown> | undefined) : undefined;
    if (!choice || typeof choice !== 'object') return moved;
    const delta = (choice.delta ?? choice.message) as Record<string, unknown> | undefined;
    if (delta && typeof delta === 'object') {
      if (typeof delta.content === 'string' && delta.content !== '') {
        this.content += delta.content;
        moved = true;
      }
      if (typeof delta.refusal === 'string' && delta.refusal !== '') {
        this.refusal += delta.refusal;
        moved = true;
      }
      // Reasoning tokens (OpenRouter's `reasoning`, DeepSeek's `reasoning_content`) are progress, not the answer.
      if (
        (typeof delta.reasoning === 'string' && delta.reasoning !== '') ||
        (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '')
      ) {
        moved = true;
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls as ToolCallDelta[]) {
          const index = typeof call?.index === 'number' && call.index >= 0 && call.index < 64 ? call.index : 0;
          this.calls[index] ??= { id: '', name: '', arguments: '' };
          const target = this.calls[index];
          if (typeof call.id === 'string') target.id = call.id;
          if (typeof call.function?.name === 'string') {
            target.name = (target.name + call.function.name).slice(0, TOOL_TEXT_MAX);
          }
          if (typeof call.function?.arguments === 'string') {
            target.arguments = (target.arguments + call.function.arguments).slice(0, TOOL_TEXT_MAX);
          }
          moved = true;
        }
      }
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
      this.finishReason = choice.finish_reason;
      moved = true;
    }
    return moved;
  }

  /** Whether the answer came to its end: a finish reason or `[DONE]`. */
  get finished(): boolean {
    return this.finishReason !== undefined || this.done;
  }

  /** The answer as a non-streamed `chat.completion` body; no choice when nothing of one arrived. */
  completion(): Record<string, unknown> {
    const calls = this.calls.filter((c) => c !== undefined && c.name !== '');
    const anything = this.content !== '' || this.refusal !== '' || calls.length > 0 || this.finishReason !== undefined;
    const message: Record<string, unknown> = { role: 'assistant', content: this.content };
    if (this.refusal !== '') message.refusal = this.refusal;
    if (calls.length > 0) {
      message.tool_calls = calls.map((c, i) => ({
        id: c.id || `call_${i}`,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    return {
      ...(this.id !== undefined && { id: this.id }),
      object: 'chat.completion',
      ...(this.model !== undefined && { model: this.model }),
      choices: anything ? [{ index: 0, message, finish_reason: this.finishReason ?? null }] : [],
      ...(this.usage !== undefined && { usage: this.usage }),
    };
  }
}

/** Whether an answer is a stream: its content type, else a body that opens as one. */
export function isEventStream(contentType: string | undefined, head: string): boolean {
  if (contentType !== undefined && /^\s*text\/event-stream\b/i.test(contentType)) return true;
  return /^\s*(data:|: ?[A-Za-z])/.test(head);
}
