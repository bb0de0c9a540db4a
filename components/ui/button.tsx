import type { ButtonHTMLAttributes, ReactNode } from "react";
import { formErrorOf } from "@/lib/forms/state";

/** The buttons' looks, by what the button does. */
export const LOOKS = {
  /** The form's main action. */
  primary: "rounded-md bg-ink px-3 py-1.5 text-sm font-medium text-white hover:bg-black disabled:opacity-60",
  /** A second action beside it, or a small form's only one. */
  secondary: "rounded-md border border-black/20 bg-white px-3 py-1.5 text-sm hover:bg-black/5 disabled:opacity-60",
  /** Something that deletes or cannot be undone. */
  danger:
    "rounded-md border border-red-900/40 bg-white px-3 py-1 text-sm text-red-900 hover:bg-red-50 disabled:opacity-60",
  /** The first step a newcomer takes. */
  accent: "rounded-md bg-accent px-4 py-2 font-medium text-white hover:bg-accent/90 disabled:opacity-60",
} as const;

export type ButtonLook = keyof typeof LOOKS;

/**
 * A form's submit button: disabled while the form is being sent, saying so (`busy`) when the wait
 * is long enough to notice. `className` replaces the look's classes where a form needs its own size.
 */
export function SubmitButton({
  pending,
  busy,
  look = "primary",
  className,
  children,
  disabled,
  ...rest
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> & {
  pending: boolean;
  busy?: ReactNode;
  look?: ButtonLook;
}) {
  return (
    <button type="submit" disabled={pending || disabled} className={className ?? LOOKS[look]} {...rest}>
      {pending && busy ? busy : children}
    </button>
  );
}

/**
 * What the form's last post came to, beside its button: the refusal (unless a field in `shown`
 * says it beside itself), or what was done.
 */
export function Outcome({
  state,
  shown = [],
  as: Tag = "p",
  errorClassName = "text-sm text-red-800",
  messageClassName = "text-sm text-black/70",
  testId,
}: {
  state: { error?: string; field?: string; message?: string };
  shown?: readonly string[];
  as?: "p" | "span";
  errorClassName?: string;
  messageClassName?: string;
  testId?: string;
}) {
  if (state.error) {
    const error = formErrorOf(state, shown);
    return error ? (
      <Tag role="alert" className={errorClassName}>
        {error}
      </Tag>
    ) : null;
  }
  if (state.message)
    return (
      <Tag role="status" className={messageClassName} data-testid={testId}>
        {state.message}
      </Tag>
    );
  return null;
}
