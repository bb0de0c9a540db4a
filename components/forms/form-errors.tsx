"use client";

import { useEffect, useState, type RefObject } from "react";
import { errorFor, formErrorOf, type FormState } from "@/lib/forms/state";

/** The id a field's error has, for the field's aria-describedby. */
export const errorId = (field: string) => `${field.replace(/[^A-Za-z0-9_-]/g, "-")}-error`;

/** The refusal beside the field it concerns (or any field under it: `budget` shows `budget.maxCalls`). */
export function FieldError({
  state,
  field,
  className = "mt-1 break-words text-sm text-red-800",
  id = errorId(field),
}: {
  state: FormState;
  field: string;
  className?: string;
  /** Where two forms on a page share a field name, the control's own id keeps this one unique. */
  id?: string;
}) {
  const message = errorFor(state, field);
  if (!message) return null;
  return (
    <p id={id} role="alert" className={className} data-field-error={field}>
      {message}
    </p>
  );
}

/** The refusal at the top of the form when no field shows it: a refusal of the whole form, or one about a field not shown beside a field. */
export function FormError({
  state,
  shown,
  className = "rounded-md bg-red-50 p-3 text-sm text-red-900",
  testId,
}: {
  state: FormState;
  shown: readonly string[];
  className?: string;
  testId?: string;
}) {
  const message = formErrorOf(state, shown);
  if (!message) return null;
  return (
    <p role="alert" className={className} data-testid={testId}>
      {message}
    </p>
  );
}

/**
 * After a refusal, a file input that no longer holds the file the user had chosen (the page was
 * rebuilt, or the browser cleared it) says so by name, instead of leaving a silent blank.
 */
export function ChooseFileAgain({
  state,
  field,
  input,
}: {
  state: FormState;
  field: string;
  input: RefObject<HTMLInputElement | null>;
}) {
  const chosen = state.files?.[field];
  const [lost, setLost] = useState(false);
  useEffect(() => {
    const el = input.current;
    if (!chosen || !el) return setLost(false);
    const check = () => setLost(!el.files || el.files.length === 0);
    check();
    el.addEventListener("change", check);
    return () => el.removeEventListener("change", check);
  }, [state, chosen, input]);
  if (!chosen || !lost) return null;
  return (
    <p className="mt-1 text-sm text-amber-900" data-testid={`${field}-choose-again`}>
      Choose {chosen} again: for your safety the browser does not let a page keep a file you chose once the form was
      sent.
    </p>
  );
}
