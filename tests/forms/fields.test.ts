import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CheckboxField, ChoiceGroup, NumberField, TextAreaField, TextField } from "@/components/ui/field";
import { Outcome } from "@/components/ui/button";
import { claimCounter } from "@/components/forms/claim-counter";
import type { FormState } from "@/lib/forms/state";

const html = (el: ReactElement) => renderToStaticMarkup(el);
/** The attributes of the element with this id, as a map. */
function attrsOf(markup: string, id: string): Record<string, string> {
  const tag = markup.match(new RegExp(`<[a-z]+[^>]*\\sid="${id}"[^>]*>`))?.[0];
  if (!tag) throw new Error(`no element #${id} in ${markup}`);
  return Object.fromEntries([...tag.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe("the form parts (components/ui/field.tsx)", () => {
  it("ties a refused field to its message and its hint, and keeps what was sent", () => {
    const state: FormState = {
      error: "Give a name of 80 characters at most.",
      field: "name",
      values: { name: "x".repeat(81) },
    };
    const out = html(
      createElement(TextField, { state, name: "name", label: "Name", hint: "For you", defaultValue: "old" }),
    );
    const input = attrsOf(out, "field-name");
    expect(input["aria-invalid"]).toBe("true");
    expect(input["aria-describedby"]).toBe("field-name-hint field-name-error");
    expect(input.value).toBe("x".repeat(81));
    expect(attrsOf(out, "field-name-error").role).toBe("alert");
    expect(out).toContain("Give a name of 80 characters at most.");
    expect(out).toContain('<label for="field-name"');
  });

  it("says nothing and marks nothing while the refusal is about another field", () => {
    const state: FormState = { error: "Too many.", field: "annotation_overlap", values: {} };
    const out = html(
      createElement(NumberField, { state, name: "match_threshold", label: "Threshold", defaultValue: 0.4 }),
    );
    const input = attrsOf(out, "field-match_threshold");
    expect(input["aria-invalid"]).toBeUndefined();
    expect(input["aria-describedby"]).toBeUndefined();
    expect(input.value).toBe("0.4");
    expect(out).not.toContain("Too many.");
  });

  it("never writes a password back into the page", () => {
    const state: FormState = { error: "Wrong.", field: "password", values: { password: "hunter22" } };
    const out = html(createElement(TextField, { state, name: "password", type: "password", label: "Password" }));
    expect(out).not.toContain("hunter22");
  });

  it("counts a claim as it stands and says the server's refusal before sending", () => {
    const long = "a".repeat(2001);
    const out = html(
      createElement(TextAreaField, {
        state: {},
        name: "claim",
        label: "Claim",
        defaultValue: long,
        counter: claimCounter("claim-count"),
      }),
    );
    expect(out).toContain("2,001 / 2,000 characters");
    expect(attrsOf(out, "field-claim")["aria-describedby"]).toBe("field-claim-hint field-claim-too-long");
    expect(out).toContain("Shorten it by 1");
  });

  it("ticks what was sent after a refusal, not what was saved", () => {
    const state: FormState = {
      error: "Choose one.",
      field: "role",
      values: { role: "editor" },
      lists: { role: ["editor"] },
    };
    const out = html(
      createElement(ChoiceGroup, {
        state,
        name: "role",
        legend: "Roles",
        chosen: ["admin"],
        options: [
          { value: "admin", label: "admin" },
          { value: "editor", label: "editor" },
        ],
      }),
    );
    const ticked = [...out.matchAll(/<input[^>]*>/g)].filter((m) => m[0].includes('checked=""')).map((m) => m[0]);
    expect(ticked).toHaveLength(1);
    expect(ticked[0]).toContain('value="editor"');
    const box = html(
      createElement(CheckboxField, { state: { values: {} }, name: "public_reading", label: "Public", checked: true }),
    );
    expect(box).not.toContain("checked");
  });

  it("shows a refusal beside the button only when no field shows it", () => {
    const field = html(
      createElement(Outcome, { state: { error: "Not a web address.", field: "url" }, shown: ["url"] }),
    );
    expect(field).toBe("");
    const whole = html(createElement(Outcome, { state: { error: "Not allowed.", field: "url" }, shown: [] }));
    expect(whole).toContain('role="alert"');
  });
});
