/**
 * What a server action sends back to the form that posted to it: the refusal (one message, and the
 * field it concerns when there is one) together with everything the user had entered, so nothing
 * is lost when the server says no. Plain data, shared by the actions (server) and the forms' hook
 * (components/forms/use-server-form.ts), which keeps the browser's own fields as they were.
 */
export type FormState = {
  /** The refusal, in words that say what to do instead. */
  error?: string;
  /** The field the refusal concerns (a form field's name, or a dotted path such as `budget.maxCalls`); none for a refusal of the whole form. */
  field?: string;
  /** Every text-like field as sent; a field sent more than once keeps its first value here and all of them in `lists`. */
  values?: Record<string, string>;
  /** Fields sent more than once or as checkbox groups (methods, roles), in the order sent. */
  lists?: Record<string, string[]>;
  /**
   * The names of the files that were chosen, by field. A browser never lets a page put a file back
   * into a file input, so a form that was rebuilt says "choose <name> again" from this.
   */
  files?: Record<string, string>;
  /** A success message for forms that stay on the page (settings saved, invitation link made). */
  message?: string;
};

/**
 * Next's own fields for server actions ($ACTION_ID…), which are not the user's, and passwords:
 * those stay in the browser's field (the form is not reset) but are never written back into a page.
 */
const SECRET_FIELDS = new Set(["password", "confirm"]);
const internal = (key: string) => key.startsWith("$ACTION") || SECRET_FIELDS.has(key);

/** The user's entries in a submitted form, as plain data that can go back to the browser. */
export function formEntries(
  form: FormData,
  groups: readonly string[] = [],
): Required<Pick<FormState, "values" | "lists" | "files">> {
  const values: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  const files: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (internal(key)) continue;
    if (typeof value === "string") {
      if (!(key in values)) values[key] = value;
      (lists[key] ??= []).push(value);
    } else if (value.name && value.size > 0) {
      files[key] = value.name;
    }
  }
  // Only real lists are kept as lists: a field sent once is in `values`.
  for (const key of Object.keys(lists)) if (lists[key]!.length < 2 && !groups.includes(key)) delete lists[key];
  // A checkbox group with nothing ticked is sent as nothing at all; it comes back as an empty list, not as "never sent".
  for (const key of groups) lists[key] ??= [];
  return { values, lists, files };
}

/**
 * A refusal that keeps what was entered. `field` names the field the message is about; leave it
 * out for a refusal of the whole form (not allowed, rate limit, server trouble). `groups` names the
 * form's checkbox groups, which come back as lists even with one box or none ticked.
 */
export function refuse(form: FormData, error: string, field?: string, groups: readonly string[] = []): FormState {
  return { error, ...(field ? { field } : {}), ...formEntries(form, groups) };
}

/** The message for `field` (or any field under it, `budget` matches `budget.maxCalls`), if the refusal concerns it. */
export function errorFor(state: FormState, field: string): string | undefined {
  if (!state.error || !state.field) return undefined;
  return state.field === field || state.field.startsWith(`${field}.`) ? state.error : undefined;
}

/**
 * The refusal for the form as a whole: one with no field, or one about a field the form does not
 * show beside a field (so it is never lost). `shown` lists the fields that show their own error.
 */
export function formErrorOf(state: FormState, shown: readonly string[]): string | undefined {
  if (!state.error) return undefined;
  if (!state.field) return state.error;
  return shown.some((f) => state.field === f || state.field!.startsWith(`${f}.`)) ? undefined : state.error;
}

/** A field's value as last sent: all of a checkbox group's ticked values, or the one value. */
export function listOf(state: FormState, name: string): string[] | undefined {
  if (state.lists?.[name]) return state.lists[name];
  if (state.values && name in state.values) return [state.values[name]!];
  return undefined;
}
