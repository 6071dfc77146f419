/**
 * "Your team" (issue 22): the success page's invitation form below the spec's content, and the manage page's Team
 * section (status, invite, resend, revoke, reassign). Renders the team statechart (src/machines/teamMachine.ts)
 * and sends it what the buyer does; it calls nothing itself.
 */
import { BreakableText } from '../shared/BreakableText';
import { useState, type FormEvent } from 'react';
import type { TeamAccess } from '../../api/teamApi';
import type { TeamSeat, TeamView } from '../../contract/team';
import { teamMachine } from '../../machines/teamMachine';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Muted, SubHeading, Table } from '../shared/panelStyles';
import { TeamActor, type TeamLogic } from './teamActor';

interface TeamSectionProps {
  access: TeamAccess;
  /** 'success': only the invitation form and who was invited; 'account': the whole Team section. */
  variant: 'success' | 'account';
  /** The statechart; tests pass one with its actors replaced. */
  machine?: TeamLogic;
}

/** The team section with its own statechart. */
export function TeamSection({ access, variant, machine = teamMachine }: TeamSectionProps) {
  return (
    <TeamActor.Provider logic={machine} options={{ input: { access } }}>
      <TeamContent variant={variant} />
    </TeamActor.Provider>
  );
}

const STATUS_TEXT: Record<TeamSeat['status'], string> = {
  invited: 'Invited, not yet accepted',
  claimed: 'Joined',
  suspended: 'On hold: add a seat to restore',
  revoked: 'Revoked',
};

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' }) : '—');

function TeamContent({ variant }: { variant: 'success' | 'account' }) {
  const actorRef = TeamActor.useActorRef();
  const team = TeamActor.useSelector((snapshot) => snapshot.context.team);
  const error = TeamActor.useSelector((snapshot) => snapshot.context.error);
  const notice = TeamActor.useSelector((snapshot) => snapshot.context.notice);
  const unavailable = TeamActor.useSelector((snapshot) => snapshot.matches('unavailable'));
  if (unavailable)
    return (
      <section id="team" aria-label="Your team">
        <SubHeading>Your team</SubHeading>
        <ErrorText role="alert">{error}</ErrorText>
        <Button type="button" onClick={() => actorRef.send({ type: 'RETRY' })}>
          Try again
        </Button>
      </section>
    );
  if (!team || (variant === 'success' && team.seats < 2)) return null;
  return (
    <section id="team" aria-label="Your team">
      <SubHeading>Your team</SubHeading>
      <Card>
        {team.free > 0 ? (
          <p>
            <strong>
              You have {team.free} more {team.free === 1 ? 'seat' : 'seats'}: invite your team.
            </strong>{' '}
            Each person gets an email with a link to accept (valid 7 days), then a login of their own.
          </p>
        ) : (
          <p>Every seat is given. {variant === 'account' && 'Revoke a seat or add seats to invite someone else.'}</p>
        )}
        {error && <ErrorText role="alert">{error}</ErrorText>}
        {notice && <p role="status">{notice}</p>}
        {team.members.length > 0 && <Members team={team} variant={variant} />}
        {team.active && team.free > 0 && <InviteForm key={team.members.length} />}
        {variant === 'account' && (
          <Muted>
            Seat 1 is yours (<BreakableText text={team.buyer.email} />
            ).
          </Muted>
        )}
      </Card>
    </section>
  );
}

function Members({ team, variant }: { team: TeamView; variant: 'success' | 'account' }) {
  const actorRef = TeamActor.useActorRef();
  const busy = TeamActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const [reassigning, setReassigning] = useState<string | null>(null);
  return (
    <Table aria-label="Team seats">
      <thead>
        <tr>
          <th>Seat</th>
          <th>Name</th>
          <th>Email</th>
          <th>Status</th>
          {variant === 'account' && <th>Actions</th>}
        </tr>
      </thead>
      <tbody>
        {team.members.map((seat) => (
          <tr key={seat.id} data-seat={seat.email}>
            <td>{seat.seatNumber}</td>
            <td>{seat.name}</td>
            <td>
              <BreakableText text={seat.email} />
            </td>
            <td>
              {STATUS_TEXT[seat.status]}
              <br />
              <Muted>{seat.claimedAt ? `since ${day(seat.claimedAt)}` : `invited ${day(seat.invitedAt)}`}</Muted>
            </td>
            {variant === 'account' && (
              <td>
                {seat.status === 'invited' && (
                  <Button type="button" disabled={busy} onClick={() => actorRef.send({ type: 'RESEND_CLICKED', seatId: seat.id })}>
                    Resend
                  </Button>
                )}{' '}
                {seat.status !== 'suspended' && (
                  <Button type="button" disabled={busy} onClick={() => setReassigning(reassigning === seat.id ? null : seat.id)}>
                    Reassign
                  </Button>
                )}{' '}
                <Button
                  type="button"
                  $variant="danger"
                  disabled={busy}
                  aria-label={`Revoke ${seat.email}`}
                  onClick={() => actorRef.send({ type: 'REVOKE_CLICKED', seatId: seat.id })}
                >
                  Revoke
                </Button>
                {reassigning === seat.id && (
                  <InviteForm
                    label={`Give seat ${seat.seatNumber} to someone else`}
                    submit="Reassign"
                    onSubmit={(email, name) => {
                      actorRef.send({ type: 'REASSIGN_SUBMITTED', seatId: seat.id, email, name });
                      setReassigning(null);
                    }}
                  />
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

interface InviteFormProps {
  label?: string;
  submit?: string;
  onSubmit?: (email: string, name: string) => void;
}

/** Name and email of one person, and Invite. */
function InviteForm({ label = 'Invite a team member', submit = 'Invite', onSubmit }: InviteFormProps) {
  const actorRef = TeamActor.useActorRef();
  const busy = TeamActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const fieldError = TeamActor.useSelector((snapshot) => snapshot.context.fieldError);
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = formText(form, 'email');
    const name = formText(form, 'name');
    if (onSubmit) onSubmit(email, name);
    else actorRef.send({ type: 'INVITE_SUBMITTED', email, name });
  };
  return (
    <Form onSubmit={send} aria-label={label}>
      <Field>
        Name
        <input name="name" autoComplete="off" required maxLength={200} />
      </Field>
      <Field>
        Email
        <input name="email" type="email" autoComplete="off" required maxLength={254} aria-invalid={fieldError ? true : undefined} />
        {fieldError && <ErrorText role="alert">{fieldError}</ErrorText>}
      </Field>
      <Button type="submit" $variant="primary" disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}
