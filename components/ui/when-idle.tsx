'use client';

import { type ReactNode, startTransition, useEffect, useRef, useState } from 'react';
import { Section } from './section';

/**
 * A part of a long page drawn once the browser has nothing else to do, or as soon as it comes near the screen
 * (scrolled to), whichever is first, or at once on a page opened at an anchor; until then `placeholder` stands in.
 * The parts wait in one queue and are drawn one per idle moment, each in its own task: a hub's lower sections, each
 * with its queries, cost a phone's first seconds nothing and never add up to one long task.
 */
export function WhenIdle({ placeholder, children }: { placeholder: ReactNode; children: ReactNode }) {
  const [shown, setShown] = useState(false);
  const stand = useRef<HTMLDivElement>(null);
  const anchor = useRef('');
  useEffect(() => {
    if (shown) {
      // the browser scrolled to the anchor before the parts replaced their placeholders, which its scroll anchoring
      // does not follow: the target is brought back into view once they are drawn
      if (anchor.current) document.getElementById(anchor.current)?.scrollIntoView();
      return;
    }
    const show = () => startTransition(() => setShown(true));
    // opened at an anchor: every part is drawn at once, before the parts above the target grow with their answers
    anchor.current = decodeURIComponent(window.location.hash.slice(1));
    if (anchor.current) {
      show();
      return;
    }
    const near = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && show(), { rootMargin: '400px 0px' });
    if (stand.current) near.observe(stand.current);
    const leave = enqueue(show);
    return () => {
      near.disconnect();
      leave();
    };
  }, [shown]);
  return shown ? children : <div ref={stand}>{placeholder}</div>;
}

/** A section not drawn yet: its heading and anchor already, so that a page's contents and links find it. */
export function LaterSection({ id, title }: { id: string; title: string }) {
  return (
    <Section id={id} anchor title={title}>
      <p aria-busy="true" className="muted">
        Loading…
      </p>
    </Section>
  );
}

const queue: (() => void)[] = [];
let waiting = false;

// Safari has no requestIdleCallback: a short timeout after the current task is the nearest it has
const whenIdle = (run: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 50);

function drawNext() {
  waiting = false;
  queue.shift()?.();
  if (queue.length) {
    waiting = true;
    whenIdle(drawNext);
  }
}

/** Queues `show`; the answer takes it out again (the part was shown otherwise, or left the page). */
function enqueue(show: () => void): () => void {
  queue.push(show);
  if (!waiting) {
    waiting = true;
    whenIdle(drawNext);
  }
  return () => {
    const at = queue.indexOf(show);
    if (at >= 0) queue.splice(at, 1);
  };
}
