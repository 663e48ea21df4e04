import { Button, Flex } from 'antd';
import { type PointerEvent, type ReactNode, useRef, useState } from 'react';

/** A drag shorter than this snaps the card back (the swipe is cancelled). */
const SWIPE_THRESHOLD = 200;
const START_DRAG = 8;

/**
 * A stack of cards for small screens: the top card follows a touch or pointer drag; released past
 * the threshold it flies off and goes to the back, otherwise it returns. Dots switch cards too.
 */
export function SwipeStack({ items, labels }: { items: ReactNode[]; labels: string[] }) {
  const [top, setTop] = useState(0);
  const [dx, setDx] = useState(0);
  const [flying, setFlying] = useState<0 | 1 | -1>(0);
  const drag = useRef<{ x: number; id: number; captured: boolean } | null>(null);
  const n = items.length;

  const down = (e: PointerEvent<HTMLDivElement>) => {
    if (flying) return;
    drag.current = { x: e.clientX, id: e.pointerId, captured: false };
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const delta = e.clientX - d.x;
    // Capture only once it is a drag, so a tap on 'Create Card' stays a click on the button.
    if (!d.captured && Math.abs(delta) > START_DRAG) {
      e.currentTarget.setPointerCapture(e.pointerId);
      d.captured = true;
    }
    if (d.captured) setDx(delta);
  };
  const end = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    drag.current = null;
    if (!d.captured) return;
    // From the release itself: `dx` is the last rendered drag, which a quick swipe can end before.
    const delta = e.clientX - d.x;
    if (Math.abs(delta) >= SWIPE_THRESHOLD) {
      setFlying(delta > 0 ? 1 : -1);
      window.setTimeout(() => {
        setTop((t) => (t + 1) % n);
        setFlying(0);
        setDx(0);
      }, 220);
    } else setDx(0);
  };
  const cancel = () => {
    drag.current = null;
    setDx(0);
  };

  const dragging = !!drag.current?.captured;
  return (
    <div>
      <div style={{ position: 'relative', paddingBottom: 12 }}>
        {items.map((item, i) => {
          const depth = (i - top + n) % n;
          const isTop = depth === 0;
          const x = isTop ? (flying ? flying * 600 : dx) : 0;
          return (
            <div
              key={labels[i]}
              data-swipe-top={isTop ? 'true' : undefined}
              aria-hidden={!isTop}
              inert={!isTop}
              onPointerDown={isTop ? down : undefined}
              onPointerMove={isTop ? move : undefined}
              onPointerUp={isTop ? end : undefined}
              onPointerCancel={isTop ? cancel : undefined}
              style={{
                position: isTop ? 'relative' : 'absolute',
                inset: isTop ? undefined : 0,
                zIndex: n - depth,
                transform: isTop
                  ? `translateX(${x}px) rotate(${x / 25}deg)`
                  : `translateY(${depth * 12}px) scale(${1 - depth * 0.04})`,
                transition: dragging && isTop ? 'none' : 'transform 220ms ease',
                touchAction: 'pan-y',
                cursor: isTop ? (dragging ? 'grabbing' : 'grab') : undefined,
                opacity: isTop ? 1 : 0.85,
              }}
            >
              {item}
            </div>
          );
        })}
      </div>
      <Flex justify="center" gap={8} style={{ marginTop: 16 }}>
        {labels.map((label, i) => (
          <Button
            key={label}
            size="small"
            shape="round"
            type={i === top ? 'primary' : 'default'}
            aria-label={`Show ${label}`}
            aria-pressed={i === top}
            onClick={() => setTop(i)}
          >
            {label}
          </Button>
        ))}
      </Flex>
    </div>
  );
}
