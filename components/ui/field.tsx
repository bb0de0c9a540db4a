"use client";

import {
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type RefObject,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { ChooseFileAgain, errorId, FieldError } from "@/components/forms/form-errors";
import { errorFor, type FormState } from "@/lib/forms/state";

/**
 * The form parts every form is built from, bound to the one form helper (`FormState` from
 * lib/forms/state.ts, posted through useServerForm): a label tied to its control, an optional hint,
 * the server's refusal beside the field it concerns, and the control pointing at both
 * (aria-describedby) and marked aria-invalid while refused. After a refusal a field shows what was
 * sent (`state.values`), so nothing typed is lost.
 */

/** The look of a text-like control, a label and a hint; a form passes its own class where it differs. */
export const CONTROL = "mt-1 block w-full rounded-md border border-black/20 bg-white px-2 py-1.5 font-normal";
export const LABEL = "block text-sm font-medium";
export const HINT = "mt-0.5 break-words text-xs text-black/60";

/** An id from a field name (`compat_0_name`, `budget.maxCalls`) that is valid in HTML and CSS selectors. */
export const fieldId = (name: string) => `field-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

/** The attributes that tie a control to its hint and its refusal. */
export function describedBy(
  state: FormState,
  field: string,
  hintId?: string,
  extra?: string | null,
  errorAt: string = errorId(field),
): { "aria-invalid"?: true; "aria-describedby"?: string } {
  const refused = !!errorFor(state, field) || !!extra;
  const ids = [hintId, refused ? (extra ?? errorAt) : undefined].filter(Boolean).join(" ");
  return { ...(refused ? { "aria-invalid": true as const } : {}), ...(ids ? { "aria-describedby": ids } : {}) };
}

export type FrameProps = {
  state: FormState;
  name: string;
  label: ReactNode;
  /** Defaults to fieldId(name). */
  id?: string;
  hint?: ReactNode;
  /** The hint between label and control (the default is under the control). */
  hintAbove?: boolean;
  /** The refusal's field when it is not the control's name (`events` for the `event` boxes). */
  errorField?: string;
  className?: string;
  labelClassName?: string;
  hintClassName?: string;
};

type ControlAttrs = { id: string; name: string; "aria-invalid"?: true; "aria-describedby"?: string };

/** Label, control, hint and refusal; `children` draws the control with the attributes that tie it in. */
export function Field({
  state,
  name,
  label,
  id,
  hint,
  hintAbove = false,
  errorField,
  className,
  labelClassName = LABEL,
  hintClassName = HINT,
  alert,
  children,
}: FrameProps & { alert?: { id: string; message: string } | null; children: (attrs: ControlAttrs) => ReactNode }) {
  const fid = id ?? fieldId(name);
  const field = errorField ?? name;
  const hintId = hint ? `${fid}-hint` : undefined;
  const hintEl = hint ? (
    <p id={hintId} className={hintClassName}>
      {hint}
    </p>
  ) : null;
  return (
    <div className={className}>
      <label htmlFor={fid} className={labelClassName}>
        {label}
      </label>
      {hintAbove ? hintEl : null}
      {children({ id: fid, name, ...describedBy(state, field, hintId, alert?.id, `${fid}-error`) })}
      {hintAbove ? null : hintEl}
      {alert ? (
        <p id={alert.id} role="alert" className="mt-1 text-sm text-red-800" data-field-error={field}>
          {alert.message}
        </p>
      ) : (
        <FieldError state={state} field={field} id={`${fid}-error`} />
      )}
    </div>
  );
}

/** What the field shows: what was sent, after a refusal; else the given default. */
const sent = (state: FormState, name: string, fallback: string | number | undefined) =>
  state.values?.[name] ?? fallback;

type Input = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id" | "defaultValue" | "className">;

/** A one-line text field (text, email, url, date, password…). */
export function TextField({
  type = "text",
  defaultValue,
  inputClassName = CONTROL,
  ...rest
}: FrameProps & Input & { defaultValue?: string; inputClassName?: string }) {
  const { frame, control } = split(rest);
  return (
    <Field {...frame}>
      {(attrs) => (
        <input
          type={type}
          defaultValue={type === "password" ? undefined : sent(frame.state, frame.name, defaultValue)}
          className={inputClassName}
          {...control}
          {...attrs}
        />
      )}
    </Field>
  );
}

/** A number field; the server says what range it takes, the browser only helps. */
export function NumberField({
  defaultValue,
  inputClassName = CONTROL,
  ...rest
}: FrameProps & Input & { defaultValue?: number | string; inputClassName?: string }) {
  const { frame, control } = split(rest);
  return (
    <Field {...frame}>
      {(attrs) => (
        <input
          type="number"
          defaultValue={sent(frame.state, frame.name, defaultValue)}
          className={inputClassName}
          {...control}
          {...attrs}
        />
      )}
    </Field>
  );
}

type Area = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "defaultValue" | "className" | "value">;

/**
 * A counter under a textarea, live as the user types: `count` says the length in words, `over`
 * the refusal the server would give (or null). The server's own refusal shows only while the text
 * is what it saw.
 */
export type Counter = { count: (text: string) => string; over: (text: string) => string | null; testId?: string };

/** A textarea; with `counter` it is controlled (by `value`/`onValueChange`, or by itself) and counts as the user types. */
export function TextAreaField({
  defaultValue,
  inputClassName = CONTROL,
  counter,
  value,
  onValueChange,
  ...rest
}: FrameProps &
  Area & {
    defaultValue?: string;
    inputClassName?: string;
    counter?: Counter;
    value?: string;
    onValueChange?: (text: string) => void;
  }) {
  const { frame, control } = split(rest);
  const start = sent(frame.state, frame.name, defaultValue) ?? "";
  const [own, setOwn] = useState(String(start));
  if (!counter)
    return (
      <Field {...frame}>
        {(attrs) => <textarea defaultValue={start} className={inputClassName} {...control} {...attrs} />}
      </Field>
    );
  const text = value ?? own;
  const tooLong = counter.over(text);
  const fid = frame.id ?? fieldId(frame.name);
  // The server's refusal is about the text it saw; once the user edits, the live count speaks instead.
  const stale = text !== (frame.state.values?.[frame.name] ?? text);
  const hint = (
    <>
      <span
        data-testid={counter.testId}
        aria-live="polite"
        className={tooLong ? "font-medium text-red-800" : undefined}
      >
        {counter.count(text)}
      </span>
      {frame.hint}
    </>
  );
  return (
    <Field
      {...frame}
      hint={hint}
      state={stale ? {} : frame.state}
      alert={tooLong ? { id: `${fid}-too-long`, message: tooLong } : null}
    >
      {(attrs) => (
        <textarea
          value={text}
          onChange={(e) => {
            setOwn(e.target.value);
            onValueChange?.(e.target.value);
          }}
          className={`${inputClassName} ${tooLong ? "border-red-700" : ""}`}
          {...control}
          {...attrs}
        />
      )}
    </Field>
  );
}

export type Option = { value: string; label: ReactNode; disabled?: boolean };

/** A drop-down list. */
export function SelectField({
  options,
  defaultValue,
  inputClassName = CONTROL,
  ...rest
}: FrameProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id" | "defaultValue" | "className"> & {
    options: readonly Option[];
    defaultValue?: string;
    inputClassName?: string;
  }) {
  const { frame, control } = split(rest);
  const controlled = "value" in control;
  return (
    <Field {...frame}>
      {(attrs) => (
        <select
          {...(controlled ? {} : { defaultValue: sent(frame.state, frame.name, defaultValue) })}
          className={inputClassName}
          {...control}
          {...attrs}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value} disabled={o.disabled}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * A group of checkboxes or radio buttons under one legend, sent under one name. `chosen` is what is
 * ticked before any refusal; after one, what was sent (checkbox groups come back as `lists`).
 */
export function ChoiceGroup({
  state,
  name,
  legend,
  options,
  chosen,
  type = "checkbox",
  errorField,
  className = "space-y-1",
  legendClassName = "mb-1 font-medium",
  itemClassName = "flex items-start gap-2",
  boxClassName = "mt-1",
  before,
  listClassName,
  quiet = false,
}: {
  /** Lays the boxes out in a box of their own under the legend and `before` (a row that wraps, say). */
  listClassName?: string;
  /** The form shows the group's refusal elsewhere (after its button). */
  quiet?: boolean;
  state: FormState;
  name: string;
  legend: ReactNode;
  options: ReadonlyArray<Option & { disabled?: boolean; className?: string }>;
  chosen: readonly string[];
  type?: "checkbox" | "radio";
  errorField?: string;
  className?: string;
  legendClassName?: string;
  itemClassName?: string;
  boxClassName?: string;
  /** Said under the legend, before the boxes (for an empty group: why there is nothing to tick). */
  before?: ReactNode;
}) {
  const field = errorField ?? name;
  const ticked =
    type === "radio" && state.values?.[name] !== undefined
      ? [state.values[name]!]
      : (state.lists?.[name] ?? (state.values?.[name] !== undefined ? [state.values[name]!] : chosen));
  const aria = describedBy(state, field);
  const boxes = options.map((o) => (
    <label key={o.value} className={`${itemClassName} ${o.className ?? ""}`.trim()}>
      <input
        type={type}
        name={name}
        value={o.value}
        defaultChecked={ticked.includes(o.value)}
        disabled={o.disabled}
        className={boxClassName}
      />
      <span className="min-w-0">{o.label}</span>
    </label>
  ));
  return (
    <fieldset
      className={className}
      {...(aria["aria-describedby"] ? { "aria-describedby": aria["aria-describedby"] } : {})}
    >
      <legend className={legendClassName}>{legend}</legend>
      {before}
      {listClassName ? <div className={listClassName}>{boxes}</div> : boxes}
      {quiet ? null : <FieldError state={state} field={field} />}
    </fieldset>
  );
}

/** One checkbox sent as "on": ticked as saved, or as sent after a refusal. */
export function CheckboxField({
  state,
  name,
  label,
  checked,
  className = "flex items-start gap-2",
  boxClassName = "mt-1",
  value,
}: {
  state: FormState;
  name: string;
  label: ReactNode;
  checked: boolean;
  className?: string;
  boxClassName?: string;
  value?: string;
}) {
  const wasSent = state.values ? state.values[name] === (value ?? "on") : checked;
  return (
    <label className={className}>
      <input type="checkbox" name={name} value={value} defaultChecked={wasSent} className={boxClassName} />
      <span>{label}</span>
    </label>
  );
}

/** Separates the frame's props from those that go to the control. */
function split<T extends FrameProps>(props: T) {
  const { state, name, label, id, hint, hintAbove, errorField, className, labelClassName, hintClassName, ...control } =
    props;
  return {
    frame: { state, name, label, id, hint, hintAbove, errorField, className, labelClassName, hintClassName },
    control,
  };
}

/**
 * A file field. With `inputRef`, after a refusal that lost the chosen file it names the file to
 * choose again (ChooseFileAgain); `alert` is a refusal found in the browser before sending (too big).
 */
export function FileField({
  inputRef,
  alert,
  inputClassName = "mt-1 block w-full max-w-full text-sm",
  ...rest
}: FrameProps &
  Omit<Input, "type"> & {
    inputRef?: RefObject<HTMLInputElement | null>;
    alert?: { id: string; message: string } | null;
    inputClassName?: string;
  }) {
  const { frame, control } = split(rest);
  return (
    <Field {...frame} alert={alert}>
      {(attrs) => (
        <>
          <input ref={inputRef} type="file" className={inputClassName} {...control} {...attrs} />
          {inputRef ? <ChooseFileAgain state={frame.state} field={frame.name} input={inputRef} /> : null}
        </>
      )}
    </Field>
  );
}
