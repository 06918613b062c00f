/// <reference lib="dom" />
/**
 * The dashboard's one script, served to browsers as an ES module. Every page works without it;
 * it adds copy buttons and live updates. It imports nothing, so tsc's output runs as is.
 */

/** Copy buttons are rendered hidden (they do nothing without a script) and named by `data-copy`. */
function enableCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      const field = document.getElementById(button.dataset.copy ?? '');
      if (!(field instanceof HTMLInputElement)) return;
      const label = button.textContent ?? '';
      const done = (text: string): void => {
        button.textContent = text;
        setTimeout(() => (button.textContent = label), 2000);
      };
      navigator.clipboard.writeText(field.value).then(
        () => done('Copied'),
        // A browser that refuses the clipboard still lets the person copy the selected text.
        () => {
          field.select();
          done('Press Ctrl+C to copy');
        },
      );
    });
  }
}

/**
 * Pages that show feeds say which with `data-live-feeds` on <main> (`*` for all of the account's).
 * On a matching event the page is fetched again and each `[data-live]` region is swapped, so forms
 * being filled in elsewhere on the page keep what was typed.
 */
function enableLiveUpdates(): void {
  const main = document.querySelector<HTMLElement>('main[data-live-feeds]');
  if (!main) return;
  const watched = new Set((main.dataset.liveFeeds ?? '').split(' ').filter(Boolean));
  const wanted = (feedId: string): boolean => watched.has('*') || watched.has(feedId);
  let refreshing: Promise<void> | undefined;
  let again = false;
  const refresh = async (): Promise<void> => {
    const response = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    // A session that ended meanwhile: go to sign-in, which brings the person back here.
    if (response.redirected || !response.ok) {
      location.assign(response.url);
      return;
    }
    const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
    for (const region of document.querySelectorAll<HTMLElement>('[data-live]')) {
      const replacement = fresh.getElementById(region.id);
      if (replacement) region.replaceWith(document.importNode(replacement, true));
    }
    enableCopyButtons();
    document.dispatchEvent(new CustomEvent('feedmill:updated'));
  };
  const schedule = (): void => {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = refresh()
      .catch(() => undefined)
      .finally(() => {
        refreshing = undefined;
        if (again) {
          again = false;
          schedule();
        }
      });
  };
  const events = new EventSource('/dashboard/events');
  events.addEventListener('feed_update', (message) => {
    const data = JSON.parse((message as MessageEvent<string>).data) as { feed_id?: string };
    if (data.feed_id && wanted(data.feed_id)) schedule();
  });
}

/**
 * In the filter builder, an operator applies to some fields only (`older_than` to `date_published`,
 * `contains` to the text fields): the operator list offers the ones that fit the chosen field, and
 * moves off one that no longer fits. Without the script the server refuses a wrong pair, saying so.
 */
function matchOperatorsToFields(): void {
  for (const row of document.querySelectorAll<HTMLElement>('.condition')) {
    const field = row.querySelector<HTMLSelectElement>('select[name="condition_field"]');
    const op = row.querySelector<HTMLSelectElement>('select[name="condition_op"]');
    if (!field || !op) continue;
    const fit = (): void => {
      for (const group of op.querySelectorAll<HTMLOptGroupElement>('optgroup[data-for]')) {
        group.disabled = !(group.dataset.for ?? '').split(' ').includes(field.value);
      }
      const chosen = op.selectedOptions[0];
      if (chosen?.parentElement instanceof HTMLOptGroupElement && chosen.parentElement.disabled) {
        const first = op.querySelector<HTMLOptionElement>('optgroup:not([disabled]) option');
        if (first) op.value = first.value;
      }
    };
    field.addEventListener('change', fit);
    fit();
  }
}

enableCopyButtons();
enableLiveUpdates();
matchOperatorsToFields();
