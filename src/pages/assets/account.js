// The account area's one script. It drives the pages through the JSON API with the browser's
// session: an HttpOnly cookie the script cannot read, and the CSRF token beside it, which it sends
// back in X-CSRF-Token (a cookie alone counts for nothing). Everything it puts on a page goes in
// as text (textContent, attributes), never as markup, so nothing an API answer holds can run.
'use strict';

(() => {
  const root = document.documentElement;
  const API = root.dataset.api;
  const PAGE = root.dataset.page;
  const SIGN_IN = '/account/login';
  const SESSION = '/account/session';
  const CSRF_COOKIE = '__Host-regintel_csrf';

  class SignedOut extends Error {}

  class ApiFailure extends Error {
    constructor(status, error) {
      super((error && error.message) || `the server answered ${status}`);
      this.status = status;
      this.code = error && error.code;
      this.details = error && error.details;
    }
  }

  function csrfToken() {
    const prefix = `${CSRF_COOKIE}=`;
    const found = document.cookie.split('; ').find((c) => c.startsWith(prefix));
    return found ? found.slice(prefix.length) : '';
  }

  // Calls the API (a path below its base, or the session path at the root). A 401 means the
  // session ended: the browser goes to the sign-in page.
  async function api(method, path, body) {
    const headers = { 'X-CSRF-Token': csrfToken(), Accept: 'application/json' };
    const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path === SESSION ? path : API + path, init);
    if (response.status === 401) {
      location.assign(SIGN_IN);
      throw new SignedOut();
    }
    const text = await response.text();
    const answer = text ? JSON.parse(text) : null;
    if (!response.ok) {
      throw new ApiFailure(response.status, answer && answer.error);
    }
    return answer;
  }

  // An element with attributes and children (strings become text nodes).
  function el(tag, attributes, ...children) {
    const svg = ['svg', 'rect', 'line', 'title', 'text', 'g'].includes(tag);
    const node = svg
      ? document.createElementNS('http://www.w3.org/2000/svg', tag)
      : document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith('on')) {
        node.addEventListener(name.slice(2), value);
      } else {
        node.setAttribute(name, value === true ? '' : String(value));
      }
    }
    for (const child of children.flat()) {
      if (child !== undefined && child !== null) node.append(child);
    }
    return node;
  }

  const byId = (id) => document.getElementById(id);

  function show(node, text) {
    node.textContent = text;
    node.hidden = !text;
  }

  // A failure as the person at the page should read it; the session's end is handled by api().
  function report(node, failure) {
    if (failure instanceof SignedOut) return;
    if (failure instanceof ApiFailure && failure.status === 429) {
      show(node, 'Too many requests just now. Wait a minute and try again.');
    } else if (failure instanceof ApiFailure) {
      show(node, failure.message);
    } else {
      show(node, 'The server could not be reached. Check the connection and try again.');
    }
  }

  const number = new Intl.NumberFormat('en');
  const when = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : 'never');

  // Asks in the page's own dialog; resolves true when confirmed.
  function confirmInPage(title, text, action) {
    const dialog = byId('confirm-dialog');
    byId('confirm-title').textContent = title;
    byId('confirm-text').textContent = text;
    byId('confirm-button').textContent = action;
    dialog.returnValue = '';
    dialog.showModal();
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), {
        once: true,
      });
    });
  }

  // Copy buttons copy the text of the element their data-copy names.
  function wireCopyButtons() {
    for (const button of document.querySelectorAll('button[data-copy]')) {
      button.addEventListener('click', async () => {
        const text = byId(button.dataset.copy).textContent;
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = 'Copied';
        } catch {
          const range = document.createRange();
          range.selectNodeContents(byId(button.dataset.copy));
          getSelection().removeAllRanges();
          getSelection().addRange(range);
          button.textContent = 'Selected: press Ctrl+C';
        }
      });
    }
  }

  function showSecret(box, codeId, secret) {
    byId(codeId).textContent = secret;
    const copy = box.querySelector('button[data-copy]');
    copy.textContent = 'Copy';
    box.hidden = false;
    copy.focus();
  }

  function wireSignOut() {
    const button = byId('sign-out');
    if (!button) return;
    button.addEventListener('click', async () => {
      try {
        await api('DELETE', SESSION);
      } catch (failure) {
        if (failure instanceof SignedOut) return;
      }
      location.assign(SIGN_IN);
    });
  }

  function homePage() {
    for (const node of document.querySelectorAll('[data-base-url]')) {
      if (node.textContent.startsWith('/')) node.textContent = location.origin + node.textContent;
    }
  }

  function loginPage() {
    const form = byId('login-form');
    const error = byId('login-error');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      show(error, '');
      const body = { email: form.email.value.trim(), password: form.password.value };
      let response;
      try {
        response = await fetch(SESSION, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      } catch {
        show(error, 'The server could not be reached. Check the connection and try again.');
        return;
      }
      if (response.ok) {
        location.assign('/account/api-keys');
      } else if (response.status === 429) {
        show(error, 'Too many sign-in attempts. Wait a minute and try again.');
      } else {
        // One message for every refusal: it never says whether the email exists.
        show(error, 'The email or password is not correct.');
      }
      form.password.value = '';
    });
  }

  async function apiKeysPage() {
    const form = byId('key-form');
    const error = byId('key-error');
    const status = byId('keys-status');
    const rows = document.querySelector('#keys tbody');

    async function load() {
      try {
        // Every page: revoked keys stay listed, so an active one may be far down the list.
        const keys = [];
        let cursor = null;
        do {
          const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
          const answer = await api('GET', `/account/api-keys${query}`);
          keys.push(...answer.data);
          cursor = answer.meta.next_cursor;
        } while (cursor);
        rows.replaceChildren(...keys.map(row));
        const active = keys.filter((k) => k.status === 'active').length;
        status.textContent = `${active} active key${active === 1 ? '' : 's'}, ${keys.length} in all.`;
      } catch (failure) {
        report(error, failure);
      }
    }

    function row(key) {
      const revoke =
        key.status === 'active'
          ? el(
              'button',
              {
                type: 'button',
                class: 'danger',
                'data-testid': 'key-revoke',
                'aria-label': `Revoke ${key.name}`,
                onclick: () => revokeKey(key),
              },
              'Revoke'
            )
          : '';
      return el(
        'tr',
        { 'data-testid': 'key-row', 'data-key-id': key.id },
        el('td', {}, el('code', {}, key.id)),
        el('td', { 'data-testid': 'key-row-name' }, key.name),
        el('td', {}, when(key.created_at)),
        el('td', {}, when(key.last_used_at)),
        el('td', { 'data-testid': 'key-status' }, key.status),
        el('td', {}, revoke)
      );
    }

    async function revokeKey(key) {
      const sure = await confirmInPage(
        'Revoke this key?',
        `Programs that use "${key.name}" (${key.id}) will be refused from now on. This cannot be undone.`,
        'Revoke key'
      );
      if (!sure) return;
      try {
        await api('DELETE', `/account/api-keys/${encodeURIComponent(key.id)}`);
        show(error, '');
      } catch (failure) {
        report(error, failure);
      }
      await load();
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      show(error, '');
      byId('key-created').hidden = true;
      try {
        const answer = await api('POST', '/account/api-keys', { name: form.name.value });
        form.reset();
        showSecret(byId('key-created'), 'key-plaintext', answer.data.api_key);
      } catch (failure) {
        if (failure instanceof ApiFailure && failure.code === 'key_limit_reached') {
          const limit = failure.details && failure.details.limit;
          show(
            error,
            `Your tier allows ${limit} active key${limit === 1 ? '' : 's'} at a time, and all are in use. ` +
              'Revoke a key you no longer need to create another, or ask the operator for the institutional tier.'
          );
        } else {
          report(error, failure);
        }
      }
      await load();
    });
    await load();
  }

  async function webhooksPage() {
    const form = byId('hook-form');
    const error = byId('hook-error');
    const status = byId('hooks-status');
    const list = byId('hooks');
    const secretBox = byId('hook-secret-box');
    const open = new Set();
    // While a shown delivery is pending, the list refreshes itself every few seconds.
    let refresh = null;

    async function load() {
      try {
        const answer = await api('GET', '/webhooks');
        if (!byId('hook-events').children.length) {
          byId('hook-events').replaceChildren(...answer.meta.event_types.map(eventChoice));
        }
        list.replaceChildren(...answer.data.map(endpoint));
        status.textContent = `${answer.data.length} of ${answer.meta.max_endpoints} endpoints registered.`;
        await refreshDeliveries();
      } catch (failure) {
        report(error, failure);
      }
    }

    // Only the delivery tables refresh on the timer: the rest of the page (and the focus in it)
    // stays as it is.
    async function refreshDeliveries() {
      let pending = false;
      for (const id of open) pending = (await deliveries(id)) || pending;
      clearTimeout(refresh);
      const again = () => refreshDeliveries().catch((failure) => report(error, failure));
      refresh = pending ? setTimeout(again, 2000) : null;
    }

    function eventChoice(type) {
      const id = `event-${type.replace(/\W/g, '-')}`;
      return el(
        'div',
        { class: 'choice' },
        el('input', { type: 'checkbox', id, name: 'event_types', value: type, checked: true }),
        el('label', { for: id }, type)
      );
    }

    function endpoint(hook) {
      const enabled = hook.status === 'enabled';
      const breaker =
        hook.breaker.state === 'closed'
          ? 'closed (delivering)'
          : `${hook.breaker.state}, ${hook.breaker.consecutive_failures} failures in a row` +
            (hook.breaker.open_until ? `, paused until ${when(hook.breaker.open_until)}` : '');
      const action = (label, testid, run, extra) =>
        el('button', { type: 'button', 'data-testid': testid, onclick: run, ...extra }, label);
      return el(
        'article',
        { class: 'card', 'data-testid': 'hook-row', 'data-hook-id': hook.id },
        el('h3', {}, el('code', {}, hook.url)),
        hook.description ? el('p', {}, hook.description) : '',
        el(
          'dl',
          {},
          el('dt', {}, 'Id'),
          el('dd', {}, el('code', {}, hook.id)),
          el('dt', {}, 'Events'),
          el('dd', {}, hook.event_types.join(', ')),
          el('dt', {}, 'Status'),
          el(
            'dd',
            { 'data-testid': 'hook-status' },
            hook.status + (hook.disabled_reason ? ` (${hook.disabled_reason})` : '')
          ),
          el('dt', {}, 'Circuit breaker'),
          el('dd', { 'data-testid': 'hook-breaker' }, breaker)
        ),
        el(
          'div',
          { class: 'actions' },
          action('Send a test event', 'hook-test', () => sendTest(hook), { disabled: !enabled }),
          action('Show deliveries', 'hook-deliveries', () => toggleDeliveries(hook.id), {
            'aria-expanded': open.has(hook.id) ? 'true' : 'false',
            'aria-controls': `deliveries-${hook.id}`,
          }),
          action('Rotate secret', 'hook-rotate', () => rotate(hook)),
          action(enabled ? 'Disable' : 'Enable', 'hook-toggle', () => toggle(hook, !enabled)),
          action('Delete', 'hook-delete', () => remove(hook), { class: 'danger' })
        ),
        el('div', { id: `deliveries-${hook.id}`, class: 'deliveries', hidden: !open.has(hook.id) })
      );
    }

    async function run(work) {
      show(error, '');
      try {
        await work();
      } catch (failure) {
        report(error, failure);
      }
      await load();
    }

    const path = (hook, tail) => `/webhooks/${encodeURIComponent(hook.id)}${tail}`;

    function sendTest(hook) {
      return run(async () => {
        await api('POST', path(hook, '/test'));
        open.add(hook.id);
        status.textContent = 'Test event queued; its delivery appears below.';
      });
    }

    function toggle(hook, enable) {
      return run(() => api('PATCH', path(hook, ''), { status: enable ? 'enabled' : 'disabled' }));
    }

    async function rotate(hook) {
      const sure = await confirmInPage(
        'Rotate the signing secret?',
        'A new secret signs every delivery from now on. The old one keeps signing beside it for 24 hours, so your receiver can switch over.',
        'Rotate secret'
      );
      if (!sure) return;
      await run(async () => {
        const answer = await api('POST', path(hook, '/rotate-secret'));
        byId('hook-secret-title').textContent = `The new signing secret of ${hook.url}.`;
        showSecret(secretBox, 'hook-secret', answer.data.secret);
      });
    }

    async function remove(hook) {
      const sure = await confirmInPage(
        'Delete this endpoint?',
        `Nothing more will be sent to ${hook.url}, and its delivery history goes with it.`,
        'Delete endpoint'
      );
      if (!sure) return;
      open.delete(hook.id);
      await run(() => api('DELETE', path(hook, '')));
    }

    async function toggleDeliveries(id) {
      if (open.has(id)) {
        open.delete(id);
      } else {
        open.add(id);
      }
      await load();
    }

    // Shows an endpoint's latest deliveries; whether one of them is still pending.
    async function deliveries(id) {
      const box = byId(`deliveries-${id}`);
      if (!box) return false;
      const answer = await api('GET', `/webhooks/${encodeURIComponent(id)}/deliveries?limit=20`);
      const rows = answer.data.map((d) => {
        const last = d.attempt_log[d.attempt_log.length - 1];
        return el(
          'tr',
          { 'data-testid': 'delivery-row' },
          el('td', {}, d.event_type),
          el('td', { 'data-testid': 'delivery-status' }, d.status),
          el('td', {}, String(d.attempts)),
          el('td', {}, last && last.status_code ? String(last.status_code) : last ? last.error || 'no answer' : '-'),
          el('td', {}, last ? `${number.format(last.latency_ms)} ms` : '-'),
          el('td', {}, when(d.delivered_at || d.next_attempt_at || d.occurred_at))
        );
      });
      box.replaceChildren(
        el('h4', {}, 'Latest deliveries'),
        rows.length
          ? el(
              'div',
              { class: 'scroll' },
              el(
                'table',
                {},
                el(
                  'thead',
                  {},
                  el(
                    'tr',
                    {},
                    ...['Event', 'Status', 'Attempts', 'Last answer', 'Latency', 'Time'].map((h) =>
                      el('th', { scope: 'col' }, h)
                    )
                  )
                ),
                el('tbody', {}, rows)
              )
            )
          : el('p', {}, 'No deliveries yet.')
      );
      return answer.data.some((d) => d.status === 'pending');
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const types = [...form.querySelectorAll('input[name=event_types]:checked')].map((c) => c.value);
      if (!types.length) {
        show(error, 'Choose at least one event.');
        return;
      }
      secretBox.hidden = true;
      await run(async () => {
        const answer = await api('POST', '/webhooks', {
          url: form.url.value.trim(),
          event_types: types,
          description: form.description.value.trim(),
        });
        form.reset();
        byId('hook-secret-title').textContent = `The signing secret of ${answer.data.url}.`;
        showSecret(secretBox, 'hook-secret', answer.data.secret);
      });
    });
    await load();
  }

  async function usagePage() {
    const summary = byId('usage-summary');
    let usage;
    try {
      usage = (await api('GET', '/account/usage')).data;
    } catch (failure) {
      report(summary, failure);
      return;
    }
    const today = usage.today;
    summary.textContent =
      `Today (${today.day}, UTC): ${number.format(today.used)} of ${number.format(usage.daily_cap)} calls, ` +
      `${number.format(today.remaining)} left.` +
      (usage.limits_enabled ? '' : ' Rate limits are off on this server.');
    byId('usage-chart').replaceChildren(chart(usage.days, usage.daily_cap));
    document
      .querySelector('#usage-days tbody')
      .replaceChildren(
        ...usage.days
          .filter((d) => d.used > 0)
          .reverse()
          .map((d) =>
            el('tr', {}, el('td', {}, d.day), el('td', {}, number.format(d.used)), el('td', {}, number.format(d.cap)))
          )
      );
    const buckets = [...usage.buckets];
    for (const key of usage.keys || []) {
      for (const b of key.buckets) buckets.push({ ...b, policy: `${b.policy} of "${key.name}"` });
    }
    document.querySelector('#buckets tbody').replaceChildren(...buckets.map(bucketRow));
  }

  function bucketRow(b) {
    return el(
      'tr',
      { 'data-testid': 'bucket-row' },
      el('td', {}, b.policy),
      el('td', {}, number.format(b.used), ' ', el('meter', { min: 0, max: b.limit, value: b.used, 'aria-hidden': 'true' })),
      el('td', {}, number.format(b.limit)),
      el('td', {}, number.format(b.remaining)),
      el('td', {}, duration(b.reset_secs))
    );
  }

  function duration(secs) {
    if (secs < 60) return `${secs} s`;
    if (secs < 3600) return `${Math.ceil(secs / 60)} min`;
    return `${Math.floor(secs / 3600)} h ${Math.ceil((secs % 3600) / 60)} min`;
  }

  // Daily calls as bars against the cap. Scaled to the cap, a quiet account's bars would be too
  // small to see: while the busiest day stays under a tenth of the cap, the scale is that day's
  // and the cap is named above the chart instead of drawn.
  function chart(days, cap) {
    const width = 900;
    const height = 240;
    const top = 24;
    const bottom = 24;
    const plot = height - top - bottom;
    const busiest = Math.max(...days.map((d) => d.used), 0);
    const capInScale = busiest >= cap / 10;
    const most = capInScale ? Math.max(cap, busiest) : Math.max(Math.ceil(busiest * 1.25), 1);
    const y = (value) => top + plot - (plot * value) / most;
    const step = width / days.length;
    const bars = days.map((d, i) => {
      const barHeight = d.used > 0 ? Math.max(2, top + plot - y(d.used)) : 0;
      return el(
        'rect',
        {
          class: 'bar',
          x: (i * step + 1).toFixed(1),
          y: (top + plot - barHeight).toFixed(1),
          width: (step - 2).toFixed(1),
          height: barHeight.toFixed(1),
          'data-day': d.day,
          'data-used': d.used,
        },
        el('title', {}, `${d.day}: ${number.format(d.used)} calls`)
      );
    });
    const capLabel = capInScale
      ? `daily cap ${number.format(cap)}`
      : `scale up to ${number.format(most)} calls; the daily cap of ${number.format(cap)} is above it`;
    const total = days.reduce((sum, d) => sum + d.used, 0);
    return el(
      'svg',
      {
        viewBox: `0 0 ${width} ${height}`,
        role: 'img',
        'aria-label': `${number.format(total)} calls in the last ${days.length} days, at most ${number.format(busiest)} in a day; daily cap ${number.format(cap)}.`,
      },
      el('line', { class: 'axis', x1: 0, x2: width, y1: top + plot, y2: top + plot }),
      bars,
      capInScale ? el('line', { class: 'cap', x1: 0, x2: width, y1: y(cap), y2: y(cap) }) : '',
      el(
        'g',
        { class: 'labels' },
        el('text', { x: 4, y: 16, class: 'cap-label' }, capLabel),
        el('text', { x: 0, y: height - 6 }, days[0].day),
        el('text', { x: width, y: height - 6, 'text-anchor': 'end' }, days[days.length - 1].day)
      )
    );
  }

  // The explorer's maps: hovering or focusing a region names it, its value and flags in the
  // panel beside the map (each region's link also carries them in its title, and the table below
  // the map has them all, so the page reads without this).
  function explorePage() {
    for (const map of document.querySelectorAll('figure.choropleth')) {
      const panel = map.querySelector('[data-map-info]');
      if (!panel) continue;
      const show = (event) => {
        const region = event.target.closest('a.region');
        if (!region) return;
        panel.textContent = region.dataset.info;
      };
      map.addEventListener('mouseover', show);
      map.addEventListener('focusin', show);
    }
  }

  const pages = {
    '/explore': explorePage,
    '/': homePage,
    '/account/login': loginPage,
    '/account/api-keys': apiKeysPage,
    '/account/webhooks': webhooksPage,
    '/account/usage': usagePage,
  };
  wireSignOut();
  wireCopyButtons();
  const page = pages[PAGE];
  if (page) page();
})();
