import type { ReactNode } from "react";

/**
 * A one-click action on a row (disable a user, revoke an invitation, pause a subscription): a
 * button in its own form that posts `fields` to a server action. It works without JavaScript.
 */
export function PostButton({
  action,
  fields,
  className = "underline",
  children,
}: {
  action: (form: FormData) => void | Promise<void>;
  fields: Record<string, string>;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form action={action}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className}>
        {children}
      </button>
    </form>
  );
}
