"use client";

import { useId, useRef, useState } from "react";
import { TextField } from "@/components/ui/field";
import { LOOKS, Outcome, SubmitButton } from "@/components/ui/button";
import { useServerForm } from "@/components/forms/use-server-form";
import { useRouter } from "next/navigation";
import { ingestUrlAction, type FormState } from "@/app/corpora/actions";
import type { UploadRule } from "@/lib/corpus/upload";
import { announceJob } from "./job-list";

type Item = {
  key: string;
  name: string;
  state: "uploading" | "started" | "refused";
  percent: number;
  message?: string;
};

const FORMAT_NAMES: Record<UploadRule["format"], string> = {
  jsonl: "JSON Lines",
  csv: "CSV",
  markdown: "Markdown",
  text: "Plain text",
  html: "HTML",
  pdf: "PDF",
};

const INITIAL: FormState = {};

function size(n: number) {
  return n >= 1024 ** 3 ? `${Math.round(n / 1024 ** 3)} GiB` : `${Math.round(n / 1024 ** 2)} MiB`;
}

/** XMLHttpRequest rather than fetch: it reports upload progress, which matters for large files. */
function send(
  corpus: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ ok: boolean; message: string; jobId?: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/corpora/${encodeURIComponent(corpus)}/uploads?filename=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((100 * e.loaded) / e.total));
    xhr.onload = () => {
      let body: { error?: string; jobId?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as { error?: string; jobId?: string };
      } catch {
        // Not JSON (a proxy's error page): the status says enough.
      }
      resolve(
        xhr.status === 202
          ? { ok: true, message: "uploaded; ingesting on the server (you can close this page)", jobId: body.jobId }
          : { ok: false, message: body.error ?? `the server answered ${xhr.status}` },
      );
    };
    // The server stops reading a body over the limit, which some browsers report as a network error.
    xhr.onerror = () =>
      resolve({
        ok: false,
        message: "the upload was interrupted (the connection closed; was the file over the limit?)",
      });
    xhr.send(file);
  });
}

export function UploadArea({ corpus, rules }: { corpus: string; rules: UploadRule[] }) {
  const router = useRouter();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const {
    state: urlState,
    pending: urlPending,
    formProps: urlForm,
  } = useServerForm<FormState>(ingestUrlAction, INITIAL, { clearOnSuccess: true });
  const accept = rules.flatMap((r) => r.extensions).join(",");

  const update = (key: string, patch: Partial<Item>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  async function uploadAll(files: File[]) {
    const batch = files.map((f, i) => ({
      file: f,
      item: { key: `${Date.now()}-${i}-${f.name}`, name: f.name, state: "uploading" as const, percent: 0 },
    }));
    setItems((all) => [...batch.map((b) => b.item), ...all]);
    // One at a time: parallel uploads would compete for the same disk and embedding CPU anyway.
    for (const { file, item } of batch) {
      const ext = file.name.includes(".") ? file.name.slice(file.name.lastIndexOf(".")).toLowerCase() : "";
      const rule = rules.find((r) => r.extensions.includes(ext));
      // Checked here too so a file over the limit is not sent only to be refused at the end.
      if (rule && file.size > rule.maxBytes) {
        update(item.key, {
          state: "refused",
          message: `larger than the ${size(rule.maxBytes)} limit for ${rule.format} files`,
        });
        continue;
      }
      const res = await send(corpus, file, (percent) => update(item.key, { percent }));
      // The server names the file for API clients; here the name is already at the start of the line.
      const message = res.message.startsWith(`${file.name}: `) ? res.message.slice(file.name.length + 2) : res.message;
      update(item.key, res.ok ? { state: "started", percent: 100, message } : { state: "refused", message });
      if (res.ok && res.jobId) announceJob({ id: res.jobId, label: file.name, bytesTotal: file.size });
      if (res.ok) router.refresh();
    }
    if (input.current) input.current.value = "";
  }

  return (
    <div className="space-y-4">
      <div
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const files = [...e.dataTransfer.files];
          if (files.length) void uploadAll(files);
        }}
        className={`rounded-lg border-2 border-dashed p-4 text-sm ${dragging ? "border-accent bg-accent/5" : "border-black/20 bg-white"}`}
      >
        <p className="font-medium">{dragging ? "Release to upload" : "Drop files here, or choose them:"}</p>
        <label htmlFor={inputId} className="mt-2 block text-sm">
          Files to upload
        </label>
        <input
          ref={input}
          id={inputId}
          type="file"
          multiple
          accept={accept}
          aria-describedby={`${inputId}-rules`}
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])];
            if (files.length) void uploadAll(files);
          }}
          className="mt-1 block w-full max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-black/20 file:bg-white file:px-3 file:py-1"
        />
        <ul id={`${inputId}-rules`} className="mt-3 space-y-0.5 text-xs text-black/60">
          {rules.map((r) => (
            <li key={r.format}>
              {FORMAT_NAMES[r.format]} ({r.extensions.join(", ")}): up to {size(r.maxBytes)}
            </li>
          ))}
          <li>
            JSON Lines: one object per line with id and text (title, url, published_at, metadata optional). CSV: a
            header row with the same columns.
          </li>
        </ul>
      </div>

      {items.length ? (
        <ul className="space-y-1 text-sm" aria-live="polite" data-testid="upload-status">
          {items.map((i) => (
            <li key={i.key} data-state={i.state} className={i.state === "refused" ? "text-red-800" : "text-black/80"}>
              <span className="font-medium break-all">{i.name}</span>:{" "}
              {i.state === "uploading"
                ? `uploading, ${i.percent}%`
                : i.state === "refused"
                  ? `refused: ${i.message}`
                  : i.message}
            </li>
          ))}
        </ul>
      ) : null}

      <form {...urlForm} className="flex flex-wrap items-end gap-2" noValidate>
        <input type="hidden" name="corpus" value={corpus} />
        <TextField
          state={urlState}
          id="corpus-url"
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://"
          label="Or add a web page or file by its address"
          className="flex min-w-0 flex-1 flex-col text-sm"
          labelClassName=""
          inputClassName="mt-1 rounded-md border border-black/20 bg-white p-1.5"
        />
        <SubmitButton
          pending={urlPending}
          busy="Fetching…"
          look="secondary"
          className={`${LOOKS.secondary} font-medium`}
        >
          Fetch and add
        </SubmitButton>
        <Outcome
          state={urlState}
          shown={["url"]}
          errorClassName="w-full text-sm text-red-800"
          messageClassName="w-full text-sm text-black/70"
        />
      </form>
    </div>
  );
}
