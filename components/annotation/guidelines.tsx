import { guidelinesHtml } from "@/lib/annotation/markdown";

export function Guidelines({ source }: { source: string }) {
  return (
    <div
      className="space-y-2 text-sm leading-relaxed [&_code]:rounded [&_code]:bg-black/5 [&_code]:px-1 [&_h3]:font-semibold [&_h4]:font-semibold [&_h5]:font-semibold [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5"
      data-testid="guidelines"
      // Sanitised by lib/untrusted/markdown.ts (sanitize-html with the guidelines' allow-list, no attributes).
      dangerouslySetInnerHTML={{ __html: guidelinesHtml(source) }}
    />
  );
}
