import type { ProcessEnding } from "../process/run-process.js";

/** How a background job stands. */
export type JobState =
  | { kind: "running" }
  | { kind: "exited"; code: number }
  | { kind: "killed" }
  | { kind: "signal"; signal: string }
  | { kind: "failed"; message: string };

/** Output kept per job; past it, the oldest unread part is dropped (and counted). */
const KEEP_CHARS = 1024 * 1024;

/** What runs in a background job: a bash command, or a `task` subagent. */
export type JobKind = "command" | "subagent";

/** One command (or subagent) running in the background. */
export class BackgroundJob {
  state: JobState = { kind: "running" };
  readonly startedAt = Date.now();
  endedAt: number | undefined;
  /** Whether the model has been told it ended. */
  announced = false;
  private output = "";
  private read = 0;
  private droppedChars = 0;
  private readonly ended: Promise<void>;
  private markEnded!: () => void;

  constructor(
    readonly id: string,
    /** The command line, or the subagent's description. */
    readonly command: string,
    private readonly abort: AbortController,
    readonly kind: JobKind = "command",
  ) {
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });
  }

  get running(): boolean {
    return this.state.kind === "running";
  }

  /** Output as it arrives (decoded by the process runner). */
  write(text: string): void {
    this.output += text;
    if (this.output.length > KEEP_CHARS * 2) {
      const cut = this.output.length - KEEP_CHARS;
      const unreadCut = Math.max(0, cut - this.read);
      this.droppedChars += unreadCut;
      this.output = this.output.slice(cut);
      this.read = Math.max(0, this.read - cut);
    }
  }

  /** What came since the last read, and how much of it was dropped for space. */
  takeNew(): { text: string; dropped: number } {
    const text = this.output.slice(this.read);
    this.read = this.output.length;
    const dropped = this.droppedChars;
    this.droppedChars = 0;
    return { text, dropped };
  }

  /** The last `lines` lines of everything kept. */
  tail(lines: number): string {
    return this.output.replace(/\n$/, "").split("\n").slice(-lines).join("\n");
  }

  finish(ending: ProcessEnding): void {
    this.state =
      ending.kind === "exit"
        ? { kind: "exited", code: ending.code }
        : ending.kind === "aborted"
          ? { kind: "killed" }
          : ending.kind === "signal"
            ? { kind: "signal", signal: ending.signal }
            : ending.kind === "spawn-error"
              ? { kind: "failed", message: ending.message }
              : { kind: "killed" };
    this.endedAt = Date.now();
    this.markEnded();
  }

  kill(): void {
    this.abort.abort();
  }

  /** Resolves when the job ends, or after `ms`. */
  async waitFor(ms: number, signal?: AbortSignal): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.ended,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      }),
    ]);
    clearTimeout(timer);
  }

  /** Everything kept (a subagent's whole answer). */
  all(): string {
    return this.output;
  }

  /** `running for 12 s`, `exited with code 0 after 3 s`, … (a subagent: `finished`, `failed`). */
  describe(now = Date.now()): string {
    const seconds = (to: number) => `${Math.round((to - this.startedAt) / 1000)} s`;
    if (this.kind === "subagent" && this.state.kind === "exited")
      return `${this.state.code === 0 ? "finished" : "failed"} after ${seconds(this.endedAt ?? now)}`;
    switch (this.state.kind) {
      case "running":
        return `running for ${seconds(now)}`;
      case "exited":
        return `exited with code ${this.state.code} after ${seconds(this.endedAt ?? now)}`;
      case "killed":
        return `killed after ${seconds(this.endedAt ?? now)}`;
      case "signal":
        return `ended by signal ${this.state.signal} after ${seconds(this.endedAt ?? now)}`;
      case "failed":
        return `could not start: ${this.state.message}`;
    }
  }
}

/**
 * The session's background jobs: commands the model started with `run_in_background`. They
 * run in their own process groups (ended with hx), outside any one call: a cancelled turn
 * does not stop them; `bash_kill` or hx's exit does.
 */
export class BackgroundJobs {
  private readonly jobs = new Map<string, BackgroundJob>();
  private next = 1;
  private readonly firstStartListeners: Array<() => void> = [];

  /** Registers a job; `run` starts the process and resolves when it ends. */
  start(
    command: string,
    run: (job: BackgroundJob, signal: AbortSignal) => Promise<ProcessEnding>,
    kind: JobKind = "command",
  ): BackgroundJob {
    const abort = new AbortController();
    const job = new BackgroundJob(`bg${this.next++}`, command, abort, kind);
    const first = this.jobs.size === 0;
    this.jobs.set(job.id, job);
    run(job, abort.signal).then(
      (ending) => job.finish(ending),
      (error) => job.finish({ kind: "spawn-error", message: String(error) }),
    );
    if (first) for (const listener of this.firstStartListeners.splice(0)) listener();
    return job;
  }

  /**
   * A subagent as a job: `run` resolves with its answer (the job's output); an error answer
   * ends it as failed, a cancelled one (bash_kill, hx's exit) as killed.
   */
  startSubagent(
    description: string,
    run: (signal: AbortSignal) => Promise<{ content: string; isError?: boolean }>,
  ): BackgroundJob {
    return this.start(
      description,
      async (job, signal) => {
        const answer = await run(signal);
        job.write(answer.content);
        if (signal.aborted) return { kind: "aborted" };
        return { kind: "exit", code: answer.isError ? 1 : 0 };
      },
      "subagent",
    );
  }

  /** Called once, when the first job starts (the session then offers bash_output and bash_kill). */
  onFirstStart(listener: () => void): void {
    if (this.jobs.size > 0) listener();
    else this.firstStartListeners.push(listener);
  }

  get(id: string): BackgroundJob | string {
    const job = this.jobs.get(id.trim());
    if (job) return job;
    const known = [...this.jobs.keys()];
    return `no background job ${id}${known.length ? `; the session has ${known.join(", ")}` : "; none was started"}.`;
  }

  list(): BackgroundJob[] {
    return [...this.jobs.values()];
  }

  /** Jobs that ended and that the model has not been told about yet (marked as told). */
  takeEnded(): BackgroundJob[] {
    const ended = this.list().filter((job) => !job.running && !job.announced);
    for (const job of ended) job.announced = true;
    return ended;
  }

  running(): BackgroundJob[] {
    return this.list().filter((job) => job.running);
  }

  killAll(): void {
    for (const job of this.running()) job.kill();
  }
}
