/**
 * The one truncation helper every tool uses. It keeps whole lines from the head, the tail or
 * both ends, and replaces what it drops with a note that says how much was cut and what the
 * model can do next. The result, note included, never exceeds `maxChars`.
 */
import { formatCount } from "../core/format-count.js";

/** Which part of the text survives: the start (file reads), the end, or both (command output). */
type KeepPart = "head" | "tail" | "both";

/** What a truncation dropped. Lines are counted as the note counts them (see `unit`). */
export interface Cut {
  totalLines: number;
  /** Whole lines kept from the start (a line shown only in part is not counted). */
  keptHeadLines: number;
  /** Whole lines kept from the end. */
  keptTailLines: number;
  omittedLines: number;
  omittedChars: number;
}

export interface TruncateOptions {
  /** Hard cap on the returned text, note included. */
  maxChars: number;
  /** Cap on the lines kept (the note is not counted). */
  maxLines?: number;
  /** Default "both". */
  keep?: KeepPart;
  /** What one line is, in the note: "lines", "files", "matches". Default "lines". */
  unit?: string;
  /** The next step for the model, e.g. "Use offset=2001 to continue." */
  nextStep?: string | ((cut: Cut) => string);
  /**
   * Text already dropped before this text arrived (e.g. by a bounded output buffer), missing
   * where this truncation cuts. Counted in the note; forces a cut.
   */
  alreadyCut?: { chars: number; lines: number };
}

export interface Truncation {
  text: string;
  /** Present when something was cut. */
  cut?: Cut;
}

/** Room kept for the note on the first try; grown if the note turns out longer. */
const NOTE_RESERVE = 160;

export function truncate(text: string, options: TruncateOptions): Truncation {
  const keep = options.keep ?? "both";
  const maxLines = options.maxLines ?? Number.POSITIVE_INFINITY;
  const lines = splitLines(text);
  const already = options.alreadyCut ?? { chars: 0, lines: 0 };
  const mustCut = text.length > options.maxChars || lines.length > maxLines || already.chars > 0;
  if (!mustCut) return { text };

  let reserve = NOTE_RESERVE + (typeof options.nextStep === "string" ? options.nextStep.length : 0);
  let last = "";
  let lastCut: Cut | undefined;
  for (let attempt = 0; attempt < 8; attempt++) {
    const budget = Math.max(0, options.maxChars - reserve);
    const picked = pick(lines, budget, maxLines, keep);
    const cut: Cut = {
      totalLines: lines.length + already.lines,
      keptHeadLines: picked.headLines,
      keptTailLines: picked.tailLines,
      omittedLines: lines.length - picked.headLines - picked.tailLines + already.lines,
      omittedChars: text.length - picked.head.length - picked.tail.length + already.chars,
    };
    const note = formatNote(cut, keep, options);
    const out = assemble(picked.head, picked.tail, note, keep);
    if (out.length <= options.maxChars) return { text: out, cut };
    reserve += out.length - options.maxChars;
    last = note;
    lastCut = cut;
  }
  // Only reached when the cap cannot even hold the note.
  return { text: last.slice(0, options.maxChars), cut: lastCut };
}

/** Splits into lines that keep their "\n", so joining them gives the text back. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

interface Picked {
  head: string;
  tail: string;
  headLines: number;
  tailLines: number;
}

function pick(lines: string[], budget: number, maxLines: number, keep: KeepPart): Picked {
  if (keep === "head") {
    const head = takeLines(lines, budget, maxLines);
    return { head: head.text, tail: "", headLines: head.whole, tailLines: 0 };
  }
  if (keep === "tail") {
    const tail = takeLines([...lines].reverse(), budget, maxLines, true);
    return { head: "", tail: tail.text, headLines: 0, tailLines: tail.whole };
  }
  const headBudget = Math.floor(budget / 2);
  const headMaxLines = Math.floor(maxLines / 2);
  const head = takeLines(lines, headBudget, headMaxLines);
  const rest = lines.slice(head.whole + (head.partial ? 1 : 0));
  const tail = takeLines([...rest].reverse(), budget - head.text.length, maxLines - headMaxLines, true);
  return { head: head.text, tail: tail.text, headLines: head.whole, tailLines: tail.whole };
}

/**
 * Takes whole lines while they fit. If not even the first fits, takes part of it (from its
 * start, or from its end when `fromEnd`), since showing nothing would be worse.
 */
function takeLines(
  lines: string[],
  budget: number,
  maxLines: number,
  fromEnd = false,
): { text: string; whole: number; partial: boolean } {
  const taken: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (taken.length >= maxLines || used + line.length > budget) break;
    taken.push(line);
    used += line.length;
  }
  if (taken.length === 0 && lines.length > 0 && maxLines >= 1 && budget > 0) {
    const first = lines[0];
    const part = fromEnd ? first.slice(first.length - budget) : first.slice(0, budget);
    return { text: part, whole: 0, partial: true };
  }
  if (fromEnd) taken.reverse();
  return { text: taken.join(""), whole: taken.length, partial: false };
}

function formatNote(cut: Cut, keep: KeepPart, options: TruncateOptions): string {
  const unit = options.unit ?? "lines";
  const amount = `${formatCount(cut.omittedLines)} ${unit} (${formatCount(cut.omittedChars)} chars)`;
  const where =
    keep === "head"
      ? `… ${amount} more not shown.`
      : keep === "tail"
        ? `… the first ${amount} not shown.`
        : `… ${amount} cut from the middle.`;
  const next = typeof options.nextStep === "function" ? options.nextStep(cut) : options.nextStep;
  return next ? `[${where} ${next}]` : `[${where}]`;
}

function assemble(head: string, tail: string, note: string, keep: KeepPart): string {
  const before = head === "" || head.endsWith("\n") ? head : `${head}\n`;
  if (keep === "head") return `${before}${note}`;
  if (keep === "tail") return `${note}\n${tail}`;
  return `${before}${note}\n${tail}`;
}
