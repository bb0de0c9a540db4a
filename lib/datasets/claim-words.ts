import type { z } from "zod";

/**
 * The claims file's accepted shapes, each as a line that can be copied, and its refusals in plain
 * words: what is wrong and what to write instead (the validator's own words, "expected object,
 * received string", tell a newsroom nothing). The /eval/new page shows the examples; the messages
 * reach it, and the command line, through lib/datasets/claims.ts.
 */
export const CLAIM_LINE_EXAMPLES: Array<{ shape: string; line: string }> = [
  {
    shape: "The least a line needs: an id and the claim (a label to score against)",
    line: '{"id": "c1", "claim": "The bridge cost $48 million.", "label": "TRUE"}',
  },
  {
    shape: "With the date the claim was made (evidence published later is left out)",
    line: '{"id": "c2", "claim": "Unemployment fell last year.", "label": "HALF-TRUE", "date": "2024-05-01"}',
  },
  {
    shape: "With gold evidence: passages written out, each an object with its text",
    line: '{"id": "c3", "claim": "The mayor cut the budget.", "label": "FALSE", "gold_evidence": [{"text": "The council raised the budget by 3%."}]}',
  },
  {
    shape: "With gold evidence by passage id, from a corpus loaded here",
    line: '{"id": "c4", "claim": "The mayor cut the budget.", "label": "FALSE", "gold_evidence_ids": ["budget-2024#0"]}',
  },
  {
    shape: "With supplied evidence (e.g. another system's top passages, in rank order)",
    line: '{"id": "c5", "claim": "Crime doubled.", "label": "FALSE", "supplied_evidence": [{"text": "Reported crime rose 4%.", "score": 0.82}]}',
  },
];

const EVIDENCE_OBJECTS: Record<string, string> = {
  gold_evidence:
    'write each passage as an object with its text, e.g. "gold_evidence": [{"text": "The council raised the budget by 3%."}]. To point at passages of a corpus by id instead, use "gold_evidence_ids": ["budget-2024#0"]',
  supplied_evidence:
    'write each passage as an object with its text (and, if you have it, a score), e.g. "supplied_evidence": [{"text": "Reported crime rose 4%.", "score": 0.82}]',
};

const FIELD_WORDS: Record<string, string> = {
  id: 'every line needs an "id", text or a number, unique in the file, e.g. "id": "c1"',
  claim: 'every line needs the "claim" as text, e.g. "claim": "The bridge cost $48 million."',
  label: 'write the "label" as text, e.g. "label": "HALF-TRUE" (or your dataset\'s own labels)',
  date: 'expected an ISO 8601 date: write the "date" as YYYY-MM-DD, e.g. "date": "2024-05-01", or a date-time such as "2024-05-01T09:00:00Z" (one without an offset is read as UTC)',
  gold_evidence_ids:
    'write "gold_evidence_ids" as a list of passage ids in quotes, e.g. "gold_evidence_ids": ["budget-2024#0"]',
  metadata: 'write "metadata" as an object, e.g. "metadata": {"source": "PolitiFact"}',
};

/** One validation problem of a claims line, as "<field>: what to write instead". */
export function claimIssueWords(issue: z.core.$ZodIssue): string {
  const [top, index, inner] = issue.path.map(String);
  if (!top)
    return 'each line must be one JSON object, e.g. {"id": "c1", "claim": "The bridge cost $48 million.", "label": "TRUE"}';
  if (top in EVIDENCE_OBJECTS) {
    if (index === undefined) return `${top}: write a list of passages, not a single value: ${EVIDENCE_OBJECTS[top]}`;
    if (inner === undefined) return `${top}: passage ${Number(index) + 1} is not an object: ${EVIDENCE_OBJECTS[top]}`;
    if (inner === "text") return `${top}: passage ${Number(index) + 1} has no "text": ${EVIDENCE_OBJECTS[top]}`;
    if (inner === "score")
      return `${top}: the score of passage ${Number(index) + 1} must be a number, e.g. "score": 0.82`;
    return `${top}: "${inner}" of passage ${Number(index) + 1} must be text in quotes`;
  }
  const words = FIELD_WORDS[top];
  if (!words) return `${issue.path.join(".")}: ${issue.message}`;
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  const empty = issue.code === "too_small";
  const blank = empty && top === "claim" ? "blank claim (no text after trimming spaces); " : empty ? "empty; " : "";
  return `${top}: ${missing ? "missing; " : blank}${words}`;
}
