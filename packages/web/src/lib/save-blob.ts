/** Saves bytes under a file name, through a temporary blob: URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL may go once this task ends.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
