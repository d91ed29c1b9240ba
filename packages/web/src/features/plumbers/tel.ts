/** A `tel:` link for a phone number as people type it: spaces, dots and dashes dropped, a leading + kept. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`;
}
