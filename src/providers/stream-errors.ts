/**
 * Failures hx itself detects while reading one answer. `classifyFailure` turns each into a
 * ProviderError and decides whether another attempt may help.
 */

/** The stream broke after the response began (socket closed, ended before the finish event). */
export class StreamDroppedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "StreamDroppedError";
  }
}

/** The stream sent nothing for the idle timeout. */
export class StreamStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(`no data for ${idleMs} ms`);
    this.name = "StreamStalledError";
  }
}

/**
 * A complete stream that carried no answer: no choices at all, or (`finished`) an answer that
 * ended normally with no text and no tool calls.
 */
export class EmptyAnswerError extends Error {
  constructor(
    readonly detail: string,
    readonly finished = false,
  ) {
    super(detail);
    this.name = "EmptyAnswerError";
  }
}

/** The endpoint answered in a form hx cannot read: not an event stream, or a malformed event. */
export class ProtocolError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = "ProtocolError";
  }
}

/** The response body passed the size cap; reading stopped there. */
export class ResponseTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`response larger than ${limitBytes} bytes`);
    this.name = "ResponseTooLargeError";
  }
}
