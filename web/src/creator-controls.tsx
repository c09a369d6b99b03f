// A company's controls for its creator, on the company page: launching its token, the CEO's prompt, the engine
// preset, the treasury and a decision round now, each signed by the creator's wallet. Shown to the creator only.
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { signedRequest } from './api';
import { Notice, type Said, said } from './errors';
import { useSigner } from './wallet';

/** What each engine preset buys: the models of a round's phases and what each agent may spend on one round. */
const PRESETS: Record<string, string> = {
  BUDGET: 'the cheapest models (Llama 4, DeepSeek); up to 0.02 USD per agent per round',
  EFFICIENT: 'fast, low-cost models (Gemini Flash, GPT-5 mini, Claude Haiku); up to 0.05 USD per agent per round',
  BALANCED: 'mid-range models, GPT-5 for the CEO; up to 0.10 USD per agent per round',
  PREMIUM: 'the strongest models (Claude Sonnet, Gemini Pro, GPT-5); up to 0.25 USD per agent per round',
};

type CompanyView = {
  id: string;
  slug: string;
  creatorAddress: string;
  treasuryAddress: string | null;
  ceoPrompt: string | null;
  enginePreset: string;
  tokenStatus: string;
  name: string;
};

export function CreatorControls({ company }: { company: CompanyView }) {
  const signer = useSigner();
  const queries = useQueryClient();
  const [message, setMessage] = useState<string | Said | undefined>();
  const [busy, setBusy] = useState(false);
  const [launched, setLaunched] = useState<string | undefined>();
  if (!signer || signer.address.toLowerCase() !== company.creatorAddress.toLowerCase()) return null;
  const act = async (what: string, run: () => Promise<unknown>) => {
    setBusy(true);
    setMessage(undefined);
    try {
      await run();
      setMessage(`${what}: done.`);
      // Everything the action may have changed is read again: the page reads the company by the slug in the address
      // (its queries are keyed by it, not by the id), and a directive moves its league, a launch its status.
      await queries.invalidateQueries();
    } catch (err) {
      const failure = said(err);
      setMessage({ ...failure, text: `${what} failed: ${failure.text}` });
    } finally {
      setBusy(false);
    }
  };
  const form = (run: (f: FormData) => Promise<unknown>, what: string) => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void act(what, () => run(f));
  };
  const base = `/api/companies/${company.id}`;
  return (
    <section aria-labelledby="controls-h" className="panel">
      <h2 id="controls-h">Creator controls</h2>
      {company.tokenStatus === 'PRE_PUBLIC' && (
        <form
          id="launch-form"
          onSubmit={form(async (f) => {
            await signedRequest(signer, 'POST', `${base}/token`, { name: f.get('tokenName'), symbol: f.get('symbol') });
            await queries.invalidateQueries({ queryKey: ['token', company.id] });
            setLaunched(String(f.get('symbol')));
          }, 'Token launch')}
        >
          <label>
            Token name
            <input name="tokenName" defaultValue={company.name} required maxLength={64} />
          </label>
          <label>
            Token symbol (2 to 10 capitals or digits)
            <input name="symbol" required pattern="^[A-Z0-9]{2,10}$" />
          </label>
          <button type="submit" disabled={busy}>
            Launch the token
          </button>
        </form>
      )}
      <form
        id="directive-form"
        onSubmit={form(
          (f) => signedRequest(signer, 'PATCH', base, { ceoPrompt: String(f.get('ceoPrompt') ?? '') || null }),
          'Directive',
        )}
      >
        <label>
          CEO directive (a directive makes the company human-directed)
          <textarea name="ceoPrompt" defaultValue={company.ceoPrompt ?? ''} maxLength={2000} rows={2} />
        </label>
        <button type="submit" disabled={busy}>
          Save directive
        </button>
      </form>
      <form
        onSubmit={form(
          (f) => signedRequest(signer, 'PATCH', `${base}/engine`, { enginePreset: f.get('preset') }),
          'Engine',
        )}
      >
        <label>
          Engine preset{' '}
          <select name="preset" defaultValue={company.enginePreset} aria-describedby="preset-help">
            {Object.keys(PRESETS).map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <dl id="preset-help" className="muted preset-help">
          {Object.entries(PRESETS).map(([p, words]) => (
            <div key={p}>
              <dt>{p}</dt>
              <dd>{words}</dd>
            </div>
          ))}
        </dl>
        <button type="submit" disabled={busy}>
          Save engine
        </button>
      </form>
      <form
        id="treasury-form"
        noValidate
        onSubmit={(e) => {
          // Checked here rather than by the browser, whose bubble leaves the last message ("Treasury: done.") on
          // screen beside an address that was not saved.
          const treasury = String(new FormData(e.currentTarget).get('treasury') ?? '').trim();
          if (!/^0x[0-9a-fA-F]{40}$/.test(treasury)) {
            e.preventDefault();
            setMessage({
              text: `Treasury not saved: “${treasury}” is not an address (0x followed by 40 hexadecimal digits).`,
              failed: true,
            });
            return;
          }
          form(() => signedRequest(signer, 'PUT', `${base}/treasury`, { treasuryAddress: treasury }), 'Treasury')(e);
        }}
      >
        <label>
          Treasury address (needed for rewards: the company's epoch rewards are paid to it; your own wallet, or an
          address that signed its acceptance)
          <input name="treasury" defaultValue={company.treasuryAddress ?? ''} onInput={() => setMessage(undefined)} />
        </label>
        <button type="submit" disabled={busy}>
          Save treasury
        </button>
      </form>
      <button
        type="button"
        disabled={busy}
        onClick={() => void act('Decision round', () => signedRequest(signer, 'POST', `${base}/decisions/run`))}
      >
        Run a decision round now
      </button>
      <Notice message={message} />
      {launched && (
        <p>
          <Link to="/companies/$id/token" params={{ id: company.slug }}>
            Open ${launched}: its chart and trades
          </Link>
        </p>
      )}
    </section>
  );
}
