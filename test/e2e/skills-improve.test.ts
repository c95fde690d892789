// `hx skills eval --description` and `--improve`, through the real binary against the fake
// model server: a scripted model that loads the skill only when its catalog line says GOOD-PDF,
// and proposes that description when asked for a better one.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../support/fake-model-server.js";
import { runHx } from "../support/run-hx.js";
import { KEYS, messagesOf, openaiFlags, useSeedFixture, writeSkill } from "./skills-support.js";

const fixture = useSeedFixture();
const GOOD = "GOOD-PDF: fills, merges, extracts and rotates PDF files. Use for any PDF task.";

const TRIGGERS = [
  { query: "fill the PDF form", should_trigger: true, split: "train" },
  { query: "merge two PDF files", should_trigger: true, split: "train" },
  { query: "write a haiku", should_trigger: false, split: "train" },
  { query: "extract text from a PDF", should_trigger: true, split: "validation" },
  { query: "rotate PDF pages", should_trigger: true, split: "validation" },
  { query: "fix the CSS", should_trigger: false, split: "validation" },
];

function pdfSkill(project: string): string {
  const dir = writeSkill(
    path.join(project, ".agents", "skills"),
    "pdf-tools",
    "name: pdf-tools\ndescription: BAD vague words.\nlicense: MIT",
    "Use pypdf for everything.",
  );
  mkdirSync(path.join(dir, "evals"), { recursive: true });
  writeFileSync(path.join(dir, "evals", "triggers.json"), JSON.stringify(TRIGGERS));
  return path.join(dir, "SKILL.md");
}

const lastUser = (request: RecordedRequest): string =>
  String(
    messagesOf(request)
      .filter((m) => m.role === "user")
      .at(-1)?.content ?? "",
  );

/** Eval sessions load the skill only for a PDF query under the GOOD description; the improver proposes GOOD. */
function scriptModel(): void {
  fixture.server.replyWith((request, reply) => {
    if (!request.body.tools?.length) {
      reply.text(`Here it is: <description>${GOOD}</description>`);
      return;
    }
    const system = String(messagesOf(request)[0].content);
    const query = lastUser(request);
    if (query.includes("skill file")) reply.tool("read_file", { path: ".agents/skills/pdf-tools/SKILL.md" });
    else if (system.includes("GOOD-PDF") && query.includes("PDF"))
      reply.tool("load_skill", { name: "pdf-tools" });
    else reply.text("an answer");
  });
}

describe("hx skills eval --description / --improve", () => {
  it("--improve raises the validation score from train failures alone, and --write keeps a backup", async () => {
    const { server, project } = fixture;
    const file = pdfSkill(project);
    const original = readFileSync(file, "utf8");
    scriptModel();
    const run = await runHx(
      [
        "skills",
        "eval",
        "pdf-tools",
        "--improve",
        "--iterations",
        "3",
        "--runs",
        "1",
        "--json",
        "--write",
        ...openaiFlags(server, project),
      ],
      { env: KEYS },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.before.validation).toMatchObject({ queries: 3, passed: 1 });
    expect(report.best.validation).toMatchObject({ queries: 3, passed: 3 });
    expect(report.best.description).toBe(GOOD);
    expect(report.improved).toBe(true);
    // One proposal, then every train query passed.
    expect(report.iterations).toBe(1);
    expect(report.notes).toContain("iteration 2: every train query passes; stopping");

    const improver = server.requests.filter((r) => !r.body.tools?.length);
    expect(improver).toHaveLength(1);
    const asked = JSON.stringify(improver[0].body.messages);
    expect(asked).toContain("fill the PDF form");
    expect(asked).toContain("BAD vague words.");
    for (const hidden of ["extract text from a PDF", "rotate PDF pages", "fix the CSS"])
      expect(asked).not.toContain(hidden);

    expect(report.written).toEqual({ file, backup: `${file}.bak` });
    expect(readFileSync(`${file}.bak`, "utf8")).toBe(original);
    const rewritten = readFileSync(file, "utf8");
    expect(rewritten).toContain(`description: ${JSON.stringify(GOOD)}`);
    expect(rewritten).toContain("license: MIT");
    expect(rewritten).toContain("Use pypdf for everything.");
    const validate = await runHx(["skills", "validate", path.dirname(file)], { env: KEYS });
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
  });

  it("--description evaluates a candidate without touching the file; reading SKILL.md counts as a trigger", async () => {
    const { server, project } = fixture;
    const file = pdfSkill(project);
    const original = readFileSync(file, "utf8");
    const queries = path.join(project, "q.json");
    writeFileSync(
      queries,
      JSON.stringify([
        ...TRIGGERS,
        { query: "open the pdf skill file", should_trigger: true, split: "train" },
      ]),
    );
    scriptModel();
    const run = await runHx(
      [
        "skills",
        "eval",
        "pdf-tools",
        "--description",
        GOOD,
        "--queries",
        queries,
        "--runs",
        "1",
        "--json",
        ...openaiFlags(server, project),
      ],
      { env: KEYS },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.skills[0]).toMatchObject({ description: GOOD, passed: 7, queries: 7 });
    const read = report.skills[0].queryResults.find((q: { query: string }) => q.query.includes("skill file"));
    expect(read).toMatchObject({ triggers: 1, passed: true });
    expect(readFileSync(file, "utf8")).toBe(original);
    expect(existsSync(`${file}.bak`)).toBe(false);
    expect(String(messagesOf(server.requests[0])[0].content)).toContain(`- pdf-tools: ${GOOD}`);
  });

  it("a query that outlasts --query-timeout fails with the reason", async () => {
    const { server, project } = fixture;
    pdfSkill(project);
    server.replyWith((_request, reply) => {
      reply.text("slow", { chunks: 2 }).delay(3000);
    });
    const queries = path.join(project, "one.json");
    writeFileSync(queries, JSON.stringify([{ query: "fill the PDF form", should_trigger: true }]));
    const run = await runHx(
      [
        "skills",
        "eval",
        "pdf-tools",
        "--queries",
        queries,
        "--runs",
        "1",
        "--query-timeout",
        "1",
        "--json",
        ...openaiFlags(server, project),
      ],
      { env: KEYS },
    );
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.skills[0].queryResults[0].errors).toEqual(["timed out after 1 s"]);
  });
});
