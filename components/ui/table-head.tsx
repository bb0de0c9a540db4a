import type { ReactNode } from "react";

/**
 * A table's header row from a list of column names. A column given as `[name, classes]` adds to
 * the row's cell classes: `text-right` for numbers, `hidden sm:table-cell` for one a phone can do
 * without.
 */
export function TableHead({
  columns,
  className = "text-left text-black/60",
  cell = "p-1",
}: {
  columns: ReadonlyArray<string | readonly [string, string]>;
  className?: string;
  cell?: string;
}) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((c) => {
          const [name, extra] = typeof c === "string" ? [c, ""] : c;
          return (
            <th key={name} className={extra ? `${cell} ${extra}` : cell}>
              {name}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/**
 * A table that scrolls inside its own box on a phone instead of widening the page, with its
 * header row from `columns`; `children` are the body's rows.
 */
export function ScrollTable({
  columns,
  testId,
  box = "overflow-x-auto",
  className = "w-full text-sm",
  head,
  cell,
  children,
}: {
  columns: ReadonlyArray<string | readonly [string, string]>;
  testId?: string;
  box?: string;
  className?: string;
  head?: string;
  cell?: string;
  children: ReactNode;
}) {
  return (
    <div className={box}>
      <table className={className} data-testid={testId}>
        <TableHead columns={columns} className={head} cell={cell} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
