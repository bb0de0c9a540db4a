/** The comparison with all its debates, as files: JSON lines for scripts, CSV for a spreadsheet. */
export function ExportLinks({ id }: { id: string }) {
  const link = "rounded-md border border-black/20 bg-white px-2 py-1 hover:bg-black/5";
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="compare-export">
      <span className="text-black/70">Download this comparison with its debates:</span>
      <a className={link} href={`/compare/${id}/export?format=csv`} download>
        CSV (spreadsheet)
      </a>
      <a className={link} href={`/compare/${id}/export?format=jsonl`} download>
        JSON lines
      </a>
    </p>
  );
}
