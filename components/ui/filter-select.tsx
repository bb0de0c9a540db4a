/**
 * One filter of a list page's filter bar (a GET form): a labelled drop-down whose empty choice is
 * "any". An option given as a string is its own label; `[value, label]` otherwise.
 */
export function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: ReadonlyArray<string | readonly [string, string]>;
}) {
  return (
    <label className="flex flex-col text-xs">
      {label}
      <select
        name={name}
        defaultValue={value ?? ""}
        className="mt-1 rounded-md border border-black/20 bg-white p-1.5 text-sm"
      >
        <option value="">any</option>
        {options.map((o) => {
          const [v, words] = typeof o === "string" ? [o, o] : o;
          return (
            <option key={v} value={v}>
              {words}
            </option>
          );
        })}
      </select>
    </label>
  );
}
