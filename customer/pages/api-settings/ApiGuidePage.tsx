import { ArrowLeftOutlined, CodeOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Skeleton } from 'antd';
import { Suspense, lazy, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useIsPhone } from '@shared/ui/wallet';
import guide from '../../../docs/api.md?raw';
import './guide.css';

// The Markdown renderer comes with the back-office's library: loaded only when the guide is read.
const Markdown = lazy(async () => ({ default: (await import('@refinedev/antd')).MarkdownField }));

const slug = (text: string) =>
  text
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9\s-]/g, '')
    .replace(/\s+/g, '-');

/**
 * Gives the guide's headings ids (so #7-receive-webhooks works) and scrolls to the one asked for;
 * code blocks and tables become keyboard-scrollable.
 * The guide renders late (a lazy renderer, then fonts and code blocks settle), so the heading is
 * kept in view while the page's layout changes, until the reader scrolls or a few seconds pass.
 */
function useAnchors(root: React.RefObject<HTMLDivElement | null>, hash: string) {
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    let following = !!hash;
    const stop = () => {
      following = false;
    };
    const apply = () => {
      el.querySelectorAll('h1, h2, h3').forEach((h) => {
        if (!h.id) h.id = slug(h.textContent ?? '');
      });
      // Code blocks and tables scroll sideways: focusable, so a keyboard can scroll them too.
      el.querySelectorAll('pre, table').forEach((block) => {
        if (!block.hasAttribute('tabindex')) block.setAttribute('tabindex', '0');
      });
      if (following) el.querySelector(`#${CSS.escape(decodeURIComponent(hash.slice(1)))}`)?.scrollIntoView();
    };
    apply();
    const mutated = new MutationObserver(apply);
    mutated.observe(el, { childList: true, subtree: true });
    const resized = new ResizeObserver(apply);
    resized.observe(document.body);
    const userEvents = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
    for (const e of userEvents) window.addEventListener(e, stop, { passive: true });
    const settled = window.setTimeout(stop, 4000);
    return () => {
      mutated.disconnect();
      resized.disconnect();
      for (const e of userEvents) window.removeEventListener(e, stop);
      window.clearTimeout(settled);
    };
  }, [root, hash]);
}

/** /portal/apisettings/guide: docs/api.md, the walk-through for integrators, as the repository has it. */
export default function ApiGuidePage() {
  const navigate = useNavigate();
  const { hash } = useLocation();
  const phone = useIsPhone();
  const root = useRef<HTMLDivElement>(null);
  useAnchors(root, hash);
  return (
    <>
      <Flex justify="space-between" gap={8} wrap style={{ marginBottom: 12 }}>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/portal/apisettings')}>
          API Settings
        </Button>
        <Button href="/api/docs" target="_blank" rel="noopener noreferrer" icon={<CodeOutlined />}>
          API reference
        </Button>
      </Flex>
      <Card styles={{ body: { padding: phone ? 16 : 32 } }}>
        <div ref={root} className="cw-guide" style={{ maxWidth: 860, margin: '0 auto' }}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 12 }} />}>
            <Markdown value={guide} />
          </Suspense>
        </div>
      </Card>
    </>
  );
}
