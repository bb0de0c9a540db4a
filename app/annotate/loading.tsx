export default function Loading() {
  return (
    <p className="text-black/60" role="status">
      Loading the next task…
    </p>
  );
}
