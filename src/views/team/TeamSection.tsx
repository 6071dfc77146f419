/**
 * "Your team": the success page's invitation form below the spec's content, and the manage page's Team
 * section (status, invite, resend, revoke, reassign, and seat 1 given to someone else or taken back). Renders the team statechart (src/machines/teamMachine.ts)
 * and sends it what the buyer does; it calls nothing itself.
 */
import { BreakableText } from '../shared/BreakableText';
import { useState, type FormEvent } from 'react';
import type { TeamAccess } from '../../api/teamApi';
import type { TeamSeat, TeamView } from '../../contract/team';
import { seatOneGiven } from '../../domain/team';
import { teamMachine } from '../../machines/teamMachine';
import { FIELD_LIMITS } from '../shared/fieldLimits';
import { LimitedInput } from '../shared/LimitedInput';
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
        {variant === 'account' && <RevokeConfirmation team={team} />}
        {team.members.length > 0 && <Members team={team} variant={variant} />}
        {team.active && team.free > 0 && <InviteForm key={team.members.length} />}
        {variant === 'account' && <SeatOne team={team} />}
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
                  aria-label={seat.seatNumber === 1 ? `Take seat 1 back from ${seat.email}` : `Revoke ${seat.email}`}
                  onClick={() => actorRef.send({ type: 'REVOKE_CLICKED', seatId: seat.id })}
                >
                  {seat.seatNumber === 1 ? 'Take back' : 'Revoke'}
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

/**
 * Revoking asked once more, in words that fit: an invitation nobody accepted stops working; a member can no longer
 * sign in. Seat 1 taken back goes to the buyer's own login again (docs/decisions/0038).
 */
function RevokeConfirmation({ team }: { team: TeamView }) {
  const actorRef = TeamActor.useActorRef();
  const revoking = TeamActor.useSelector((snapshot) => (snapshot.matches('confirmingRevoke') ? snapshot.context.revoking : null));
  const seat = revoking && team.members.find((member) => member.id === revoking.seatId);
  if (!revoking || !seat) return null;
  const seatOne = seat.seatNumber === 1;
  const question = seatOne
    ? `Take seat 1 back from ${seat.name}?`
    : revoking.member
      ? `Revoke ${seat.name}’s seat?`
      : `Revoke the invitation to ${seat.name}?`;
  const outcome = revoking.member
    ? `${seat.name} (${seat.email}) can no longer sign in to the training.`
    : `The invitation link sent to ${seat.email} stops working.`;
  const after = seatOne ? 'Seat 1 goes back to your own login.' : 'The seat is free to give to someone else.';
  return (
    <div role="alertdialog" aria-label={question} aria-describedby="revoke-confirmation-text">
      <p>
        <strong>{question}</strong>
      </p>
      <p id="revoke-confirmation-text">
        {outcome} {after}
      </p>
      <Button type="button" $variant="danger" onClick={() => actorRef.send({ type: 'REVOKE_CONFIRMED' })}>
        {seatOne ? 'Yes, take seat 1 back' : revoking.member ? 'Yes, revoke the seat' : 'Yes, revoke the invitation'}
      </Button>{' '}
      <Button type="button" onClick={() => actorRef.send({ type: 'REVOKE_ABANDONED' })}>
        Keep it
      </Button>
    </div>
  );
}

/** Who holds seat 1, and the buyer's way to give it to someone else (docs/decisions/0038). */
function SeatOne({ team }: { team: TeamView }) {
  const actorRef = TeamActor.useActorRef();
  const [giving, setGiving] = useState(false);
  const given = seatOneGiven(team.members);
  if (given)
    return (
      <Muted>
        {given.status === 'claimed'
          ? `Seat 1 is ${given.name}’s: your own login no longer signs in to the training.`
          : `Seat 1 is offered to ${given.name}; your login keeps it until they accept.`}{' '}
        You still manage the subscription and the team. “Take back” returns seat 1 to your login.
      </Muted>
    );
  return (
    <>
      <Muted>
        Seat 1 is yours (<BreakableText text={team.buyer.email} />
        ). Buying for someone else? Give it to them: you still manage the subscription.
      </Muted>
      {team.active && (
        <Button type="button" onClick={() => setGiving(!giving)} aria-expanded={giving}>
          Give my seat to someone else
        </Button>
      )}
      {team.active && giving && (
        <InviteForm
          label="Give seat 1 to someone else"
          submit="Give seat 1"
          seatOne
          onSubmit={(email, name) => actorRef.send({ type: 'GIVE_SEAT_ONE_SUBMITTED', email, name })}
        />
      )}
    </>
  );
}

interface InviteFormProps {
  label?: string;
  submit?: string;
  onSubmit?: (email: string, name: string) => void;
  /** The form giving seat 1: it shows that change's email refusal, and the other forms every other change's. */
  seatOne?: boolean;
}

/** Name and email of one person, and Invite. */
function InviteForm({ label = 'Invite a team member', submit = 'Invite', onSubmit, seatOne = false }: InviteFormProps) {
  const actorRef = TeamActor.useActorRef();
  const busy = TeamActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const fieldError = TeamActor.useSelector((snapshot) =>
    (snapshot.context.change?.kind === 'giveSeatOne') === seatOne ? snapshot.context.fieldError : null,
  );
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
        <LimitedInput name="name" autoComplete="off" required maxLength={FIELD_LIMITS.name} />
      </Field>
      <Field>
        Email
        <LimitedInput
          name="email"
          type="email"
          autoComplete="off"
          required
          maxLength={FIELD_LIMITS.email}
          aria-invalid={fieldError ? true : undefined}
          onChange={() => actorRef.send({ type: 'EMAIL_TYPED' })}
        />
        {fieldError && <ErrorText role="alert">{fieldError}</ErrorText>}
      </Field>
      <Button type="submit" $variant="primary" disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}
