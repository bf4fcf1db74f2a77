// Sizes, speeds and times as a person reads them (the picker, the progress notification, the view).

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`;
}

/** "12 MB of 1.1 GB · 4.2 MB/s · 3 min left" (the parts that are known). */
export function formatTransfer(p: {
  receivedBytes: number;
  totalBytes: number;
  bytesPerSecond?: number;
  secondsLeft?: number | null;
}): string {
  const parts = [`${formatBytes(p.receivedBytes)} of ${formatBytes(p.totalBytes)}`];
  if (p.bytesPerSecond) parts.push(`${formatBytes(p.bytesPerSecond)}/s`);
  if (p.secondsLeft !== undefined && p.secondsLeft !== null) parts.push(`${formatDuration(p.secondsLeft)} left`);
  return parts.join(" · ");
}
