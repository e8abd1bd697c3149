/** A provider's logo as an inline SVG: its brand colour and a monogram (no artwork fetched or copied). */
export function monogramLogo(background: string, monogram: string, color = "#fff"): string {
  const size = monogram.length > 1 ? 28 : 32;
  return `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${background}"/><text x="32" y="43" font-family="Arial,Helvetica,sans-serif" font-size="${size}" font-weight="700" fill="${color}" text-anchor="middle">${monogram}</text></svg>`,
  )}`;
}
