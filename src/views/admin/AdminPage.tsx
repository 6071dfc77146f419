/**
 * The owner's console at /admin (a chunk of its own, src/pageChunks.ts; its routes are nested under /admin):
 * sign-in, then the dashboard (/admin), orders (/admin/orders, /admin/orders/{transactionId}; the address's query
 * is the list's filter), cancellations (/admin/cancellations), referrers (/admin/referrers), the offer's content (/admin/content), commissions (/admin/commissions), the tax report (/admin/tax), and the outbox's mail
 * (/admin/mail). The session, the dashboard, the orders and an order are statecharts
 * (src/machines/console*Machine.ts). Every figure comes from /api/admin/* (server/admin/routes/); a 401 from any
 * of them sends SESSION_ENDED, and the sign-in form shows again.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useState } from 'react';
import styled from 'styled-components';
import { Link, Route, Switch, useSearch } from 'wouter';
import { consoleSessionMachine } from '../../machines/consoleSessionMachine';
import { usePageTitle } from '../shared/usePageTitle';
import { colors, media } from '../theme';
import { AdminContent } from './AdminContent';
import { AdminCommissions } from './AdminCommissions';
import { AdminDashboard } from './AdminDashboard';
import { AdminOrderDetail, AdminOrders, ordersQueryOf } from './AdminOrders';
import { AdminMail } from './AdminMail';
import { AdminReferrers } from './AdminReferrers';
import { AdminSignIn } from './AdminSignIn';
import { AdminTax } from './AdminTax';
import { Button, Page } from '../shared/panelStyles';

/** The console; tests pass `consoleSessionMachine.provide({ actors: … })` as `logic`. */
export function AdminPage({ logic = consoleSessionMachine }: { logic?: typeof consoleSessionMachine }) {
  usePageTitle("Owner's console");
  const actorRef = useActorRef(logic);
  const { owner, error } = useSelector(actorRef, (snapshot) => snapshot.context);
  const checking = useSelector(actorRef, (snapshot) => snapshot.matches('checking'));
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy'));
  const signedOut = useCallback(() => actorRef.send({ type: 'SESSION_ENDED' }), [actorRef]);
  const search = useSearch();
  const [menuOpen, setMenuOpen] = useState(false);
  if (checking) return <Page aria-busy="true">Loading…</Page>;
  if (!owner)
    return (
      <AdminSignIn error={error} busy={busy} onSubmit={(credentials) => actorRef.send({ type: 'SIGN_IN_SUBMITTED', ...credentials })} />
    );
  const signOut = () => actorRef.send({ type: 'SIGN_OUT_CLICKED' });
  return (
    <>
      <Bar>
        {/* On a phone the links fold behind "Menu", so the screen starts with its content (spec §9, 768 px). */}
        <MenuButton type="button" aria-expanded={menuOpen} aria-controls="console-nav" onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </MenuButton>
        <Nav id="console-nav" aria-label="Console" $open={menuOpen} onClick={() => setMenuOpen(false)}>
          <Link href="/">Dashboard</Link>
          <Link href="/orders">Orders</Link>
          <Link href="/cancellations">Cancellations</Link>
          <Link href="/referrers">Referrers</Link>
          <Link href="/content">Content</Link>
          <Link href="/mail">Mail</Link>
          <Link href="/commissions">Commissions</Link>
          <Link href="/tax">Tax</Link>
        </Nav>
        <Who>
          <OwnerEmail>{owner.email}</OwnerEmail>
          <Button type="button" onClick={signOut} disabled={busy}>
            Sign out
          </Button>
        </Who>
      </Bar>
      <Page as="main">
        <Switch>
          <Route path="/orders/:transactionId">
            {(params) => <AdminOrderDetail transactionId={params.transactionId} onUnauthorised={signedOut} />}
          </Route>
          <Route path="/orders">
            <AdminOrders key={search} initialQuery={ordersQueryOf(search)} onUnauthorised={signedOut} />
          </Route>
          <Route path="/cancellations">
            <AdminOrders cancellations onUnauthorised={signedOut} />
          </Route>
          <Route path="/referrers">
            <AdminReferrers onUnauthorised={signedOut} />
          </Route>
          <Route path="/content">
            <AdminContent onUnauthorised={signedOut} />
          </Route>
          <Route path="/commissions">
            <AdminCommissions onUnauthorised={signedOut} />
          </Route>
          <Route path="/mail">
            <AdminMail onUnauthorised={signedOut} />
          </Route>
          <Route path="/tax">
            <AdminTax onUnauthorised={signedOut} />
          </Route>
          <Route>
            <AdminDashboard onUnauthorised={signedOut} />
          </Route>
        </Switch>
      </Page>
    </>
  );
}

/** The console's navigation bar, under the product's header (src/App.tsx): one banner landmark per page. */
const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: center;
  gap: 12px;
  padding: 8px 16px;
  background: ${colors.surface};
  border-bottom: 1px solid ${colors.border};
`;

const Nav = styled.nav<{ $open: boolean }>`
  display: flex;
  flex-wrap: wrap;
  column-gap: 20px;
  a {
    color: ${colors.brand};
    font-weight: 600;
    padding: 12px 0;
  }
  ${media.narrow} {
    display: ${({ $open }) => ($open ? 'flex' : 'none')};
    order: 3;
    flex-basis: 100%;
    flex-direction: column;
    a {
      padding: 10px 0;
    }
  }
`;

/** The menu's button, on phones only. */
const MenuButton = styled(Button)`
  display: none;
  ${media.narrow} {
    display: inline-block;
  }
`;

const Who = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  color: ${colors.text};
`;

/** Who is signed in; on a phone the menu's row keeps only "Sign out", so the screen starts with its content. */
const OwnerEmail = styled.span`
  ${media.narrow} {
    display: none;
  }
`;
