/**
 * A model field on a web form: a choice among the models the server's configuration offers
 * (lib/ai/web-models.ts), never free text, because the server refuses anything else. The empty
 * choice means "the configured default for this role".
 */
export function ModelSelect({
  id,
  name,
  allowed,
  fallback,
  defaultValue,
  className,
  describedBy,
}: {
  id: string;
  name: string;
  allowed: string[];
  /** What the empty choice resolves to, shown in its label. */
  fallback?: string;
  defaultValue?: string;
  className?: string;
  describedBy?: string;
}) {
  // A value kept from a refused submission is not offered again.
  const value = defaultValue && allowed.includes(defaultValue) ? defaultValue : "";
  return (
    <select id={id} name={name} defaultValue={value} aria-describedby={describedBy} className={className}>
      <option value="">{fallback ? `default (${fallback})` : "default (none configured)"}</option>
      {allowed.map((m) => (
        <option key={m} value={m}>
          {m}
        </option>
      ))}
    </select>
  );
}
