-- Testbed rules: the council, a procedure tree that exercises the engine's procedures and
-- shared decisions. A seat calls a council from its turn; the council (a phase) calls two
-- rounds; a round calls a wager (both seats commit a card in secret; each card's value plus
-- the seat's private favour, plus any card effect, is an explained sum; the higher wins the
-- difference) and then an objection (a reaction window: each seat in turn, the loser first,
-- may object, which voids the round, or pass). The council hands the points won back to
-- the turn, which scores them.

local modifiers = include("@lib/modifiers.lua")

local council = {}

local ROUNDS = 2

local function other(seat)
  return seat == "A" and "B" or "A"
end

local function name(ctx, seat)
  return ctx.data.seats[seat].name
end

-- The council: an automatic state that runs its rounds one after the other and returns
-- the points each seat won.
council.council = {}

function council.council.on_enter(ctx)
  ctx.locals.round = 0
  ctx.locals.won = { A = 0, B = 0 }
  ctx:log("The council opens.")
end

function council.council.run(ctx)
  if ctx.locals.round >= ROUNDS then
    ctx:pop(ctx.locals.won)
    return
  end
  ctx.locals.round = ctx.locals.round + 1
  ctx:call("round", { n = ctx.locals.round })
end

function council.council.on_resume(ctx, result)
  if result.winner then
    ctx.locals.won[result.winner] = ctx.locals.won[result.winner] + result.points
  end
end

-- A round: an automatic state that calls the wager, then the objection, then returns who
-- won how many points (no winner when the round is void).
council.round = {}

function council.round.run(ctx)
  local locals = ctx.locals
  if locals.stage == nil then
    local ready = 0
    for _, seat in ipairs(ctx:seats()) do
      if ctx:count("hand." .. seat) > 0 then
        ready = ready + 1
      end
    end
    if ready < 2 then
      ctx:log(string.format("Round %d: a seat has no card to wager; the round is void.", locals.n))
      ctx:pop({ points = 0 })
      return
    end
    locals.stage = "wager"
    ctx:call("wager", { n = locals.n })
  elseif locals.stage == "wagered" and locals.winner then
    locals.stage = "objection"
    ctx:call("objection", { winner = locals.winner, first = other(locals.winner) })
  else
    ctx:pop({ winner = locals.winner, points = locals.points or 0 })
  end
end

function council.round.on_resume(ctx, result)
  local locals = ctx.locals
  if locals.stage == "wager" then
    locals.stage = "wagered"
    locals.winner, locals.points = result.winner, result.points
  elseif result.objected_by then
    ctx:log(string.format("Round %d is void: %s objected.", locals.n, name(ctx, result.objected_by)))
    locals.winner, locals.points = nil, 0
  end
end

-- The wager: each seat commits a card from its hand in secret; the rules see both at once.
council.wager = {}

function council.wager.prompt(ctx)
  local asks = {}
  for _, seat in ipairs(ctx:seats()) do
    local actions = {}
    for _, card in ipairs(ctx:zone("hand." .. seat)) do
      actions[#actions + 1] = { name = "commit", arg = card, card = card }
    end
    if #actions > 0 then
      asks[#asks + 1] = { seat = seat, actions = actions }
    end
  end
  local waiting = #ctx:answered() > 0 and " (one seat has chosen)" or ""
  return { text = string.format("Round %d: wager a card, face down%s", ctx.locals.n, waiting), asks = asks }
end

--- A seat's wager: the card's value, the seat's private favour, and the card's effect.
function council.wager_sum(ctx, seat, card)
  local sum = modifiers.sum(name(ctx, seat) .. "'s wager")
  sum:add(ctx.data.cards[card].fields.value, ctx.data.cards[card].name)
  sum:add_if((ctx.private[seat].favour or 0) ~= 0, ctx.private[seat].favour or 0, "favour")
  local effect = council.effects[card]
  if effect and effect.wager then
    sum:add(effect.wager(ctx, seat), "card effect")
  end
  return sum
end

function council.wager.reveal(ctx, choices)
  local sums = {}
  for _, seat in ipairs(ctx:seats()) do
    local choice = choices[seat]
    if choice then
      ctx:log(string.format("%s reveals %s.", name(ctx, seat), ctx.data.cards[choice.arg].name))
      sums[seat] = council.wager_sum(ctx, seat, choice.arg)
      sums[seat]:log(ctx)
      ctx:move_card(choice.arg, "discard", "top")
      ctx:flip(choice.arg, true)
      if ctx:count("deck") > 0 then
        ctx:deal("deck", "hand." .. seat, 1)
      end
    end
  end
  local a, b = sums.A:total(), sums.B:total()
  if a == b then
    ctx:log("The wager is tied: nobody wins the round.")
    ctx:pop({ points = 0 })
  else
    local winner = a > b and "A" or "B"
    ctx:log(string.format("%s wins the wager by %d.", name(ctx, winner), math.abs(a - b)))
    ctx:pop({ winner = winner, points = math.abs(a - b) })
  end
end

-- The objection: a reaction window, the loser asked first; objecting costs the objector a
-- point of score and voids the round.
council.objection = {}

function council.objection.prompt(ctx)
  local asks = {}
  for _, seat in ipairs({ ctx.locals.first, ctx.locals.winner }) do
    asks[#asks + 1] = {
      seat = seat,
      actions = { { name = "object", label = "Object (costs 1 VP): the round is void" } },
    }
  end
  return { text = string.format("%s won the wager: does anyone object?", name(ctx, ctx.locals.winner)), asks = asks }
end

function council.objection.object(ctx, _, seat)
  ctx:add_counter("vp." .. seat, -1)
  ctx:pop({ objected_by = seat })
end

function council.objection.all_passed(ctx)
  ctx:log("Nobody objects.")
  ctx:pop({})
end

-- Card effects, keyed by card id, each with its text in our words.
council.effects = {
  -- Five: in a wager it counts one more.
  five = {
    wager = function(ctx, seat)
      return 1
    end,
  },
}

return council
