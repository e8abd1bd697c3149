/* eslint-disable @next/next/no-img-element -- inline SVG data URIs, nothing to optimise */
export function TypeLogo({ logo, size = 24 }: { logo: string | null | undefined; size?: number }) {
  if (!logo)
    return (
      <span
        aria-hidden="true"
        style={{ width: size, height: size }}
        className="inline-block shrink-0 rounded-md bg-zinc-200 dark:bg-zinc-700"
      />
    );
  return <img src={logo} alt="" width={size} height={size} className="shrink-0 rounded-md" />;
}
