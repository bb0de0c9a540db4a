import fs from "node:fs";
import { parse } from "csv-parse/sync";
import { z } from "zod";
import { parseJsonBounded } from "@/lib/untrusted/limits";

/**
 * Labelled sentences for training and measuring the check-worthiness scorers, in either of two
 * forms: JSON Lines `{"text": "...", "label": 0|1}` (an `id` is kept when present), or the CLEF
 * CheckThat! 2024 Task 1 files as published (tab-separated `Sentence_id`, `Text`, `class_label`
 * with Yes/No), which is what `npx counterpoint dataset download checkworthiness` installs.
 */

export type LabelledSentence = { id: string; text: string; label: 0 | 1 };

export class DatasetFileError extends Error {}

const jsonLine = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  text: z.string().trim().min(1, "text is empty"),
  label: z.union([z.literal(0), z.literal(1)], { error: "label must be 0 or 1" }),
});

const tsvRow = z.object({
  Sentence_id: z.string(),
  Text: z.string().min(1, "Text is empty"),
  class_label: z.enum(["Yes", "No"], { error: "class_label must be Yes or No" }),
});

export function parseLabelledSentences(content: string, name: string): LabelledSentence[] {
  const firstLine = content.slice(0, content.indexOf("\n") === -1 ? undefined : content.indexOf("\n"));
  if (firstLine.startsWith("Sentence_id\t")) {
    const rows = parse(content, { delimiter: "\t", columns: true, relax_quotes: false, bom: true }) as unknown[];
    return rows.map((r, i) => {
      const ok = tsvRow.safeParse(r);
      if (!ok.success) throw new DatasetFileError(`${name}, row ${i + 2}: ${ok.error.issues[0]!.message}`);
      return { id: ok.data.Sentence_id, text: ok.data.Text, label: ok.data.class_label === "Yes" ? 1 : 0 };
    });
  }
  const out: LabelledSentence[] = [];
  content.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = parseJsonBounded(line);
    } catch {
      throw new DatasetFileError(
        `${name}, line ${i + 1}: not JSON. Give JSON Lines ({"text": ..., "label": 0 or 1}) or the CheckThat! .tsv file`,
      );
    }
    const ok = jsonLine.safeParse(raw);
    if (!ok.success) throw new DatasetFileError(`${name}, line ${i + 1}: ${ok.error.issues[0]!.message}`);
    out.push({ id: String(ok.data.id ?? i + 1), text: ok.data.text, label: ok.data.label });
  });
  return out;
}

export function readLabelledSentences(file: string): LabelledSentence[] {
  let content: string;
  try {
    content = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new DatasetFileError(`Cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const rows = parseLabelledSentences(content, file);
  if (rows.length === 0) throw new DatasetFileError(`${file} holds no labelled sentences`);
  return rows;
}
