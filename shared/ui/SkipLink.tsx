import type { MouseEvent } from 'react';

/** Moves focus to the screen's `main` (held by script: a `#main` address would be a navigation to the router). */
function toMain(e: MouseEvent<HTMLAnchorElement>) {
  const main = document.querySelector<HTMLElement>('main');
  if (!main) return;
  e.preventDefault();
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  main.focus();
  main.scrollIntoView({ block: 'start' });
}

/** WCAG 2.4.1: the first focusable element of every layout, shown when it has focus. */
export function SkipLink() {
  return (
    // biome-ignore lint/a11y/useValidAnchor: a skip link is a link to a place in the page; the script only keeps the router out of it
    <a href="#main" className="cw-skip-link" onClick={toMain}>
      Skip to main content
    </a>
  );
}
