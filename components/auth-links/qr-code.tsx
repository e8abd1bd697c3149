"use client";

import { useEffect, useState } from "react";
import QRCode from "qrcode";

/** The link as a QR code (an SVG the qrcode package draws in the browser), for handing over to a phone. */
export function QrCode({ value, size = 176 }: { value: string; size?: number }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toString(value, {
      type: "svg",
      margin: 1,
      errorCorrectionLevel: "M",
      color: { dark: "#18181b", light: "#ffffff" },
    }).then(
      (s) => live && setSvg(s),
      () => live && setSvg(null),
    );
    return () => {
      live = false;
    };
  }, [value]);
  if (!svg)
    return (
      <div style={{ width: size, height: size }} className="animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
    );
  return (
    <div
      role="img"
      aria-label="QR code of the auth link"
      data-testid="auth-link-qr"
      style={{ width: size, height: size }}
      className="overflow-hidden rounded-lg bg-white p-1 [&>svg]:h-full [&>svg]:w-full"
      // The SVG is generated locally by the qrcode package from the link; it carries no user markup.
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
