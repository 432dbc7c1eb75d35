-- Congress of Vienna: the solitaire seatings' Diplomacy Phase played from the displays
-- (Playbook 19.3, 20.3-20.7, 21.3-21.7, 22.1, 23). Every card comes through the fate die
-- (rules/cdgsm.lua, state cdgsm_play); these states are the plays around it:
--   * solo_wager: each power takes its Wager card from its side's display, face down, in
--     the seating's order; the cards are then shown together;
--   * solo_debate: a declared debate, or France's pre-emptive debate (which needs a French
--     card: if the die gives none, the pre-empt fails, is not counted, and the debate it
--     meant to forestall goes ahead);
--   * solo_trade: a card offered face down, the other power's answer, the card it gives
--     from its own display, and where each card goes (option cdgsm.trade_card);
--   * solo_leader_discard: the card a Leader's play or debate costs, through the fate die.

local powers = include("rules/powers.lua")
local cards = include("rules/cards.lua")
local solo = include("rules/cdgsm_display.lua")
local solitaire = include("rules/solitaire.lua")
local options = include("rules/options.lua")
local diplomacy = include("rules/diplomacy.lua")
local rounds = include("rules/rounds.lua")
local decide = include("rules/decide.lua")
local steps = include("@lib/steps.lua")

local states = {}

local name = powers.name

local function play(power, purpose, nation)
  return steps.call("cdgsm_play", { side = solo.side_of(power), power = power, purpose = purpose, nation = nation })
end

-- The Wager (19.3; 20.3, 21.3, 22.1): one card a power, each from its side's display and
-- laid face down, in the seating's order; then all are shown (rules/diplomacy.lua).
states.solo_wager = steps.procedure("The Wager from the solo displays", {
  {
    name = "the Wager cards",
    calls = "cdgsm_play",
    each = function(ctx)
      ctx.locals.laid = {}
      return solitaire.wager_order(ctx)
    end,
    label = name,
    run = function(_, power)
      return play(power, "wager")
    end,
    resume = function(ctx, result, power)
      if result.card then
        ctx.locals.laid[power] = result.card
      else
        ctx:log(string.format("%s has no card for the Wager.", name(ctx, power)))
      end
    end,
  },
  {
    name = "the cards shown",
    run = function(ctx)
      diplomacy.wager_result(ctx, ctx.locals.laid)
      return steps.stop()
    end,
  },
})

-- A debate played from a display: the fate die gives the card, and the debate is carried
-- out with it ({debated = power}); with no card there is none ({}). France's pre-empt needs
-- a French card (`nation`); without one it fails and the declared debate goes ahead, or
-- the window opens as if France had not spoken.
states.solo_debate = {}

function states.solo_debate.run(ctx)
  local locals = ctx.locals
  ctx:call("cdgsm_play", { side = solo.side_of(locals.power), power = locals.power, purpose = "debate",
    nation = locals.nation, piece = locals.piece })
end

function states.solo_debate.on_resume(ctx, result)
  local locals = ctx.locals
  if result.card then
    if locals.preempt then
      rounds.count_preempt(ctx, locals.debater)
    end
    rounds.carry_out_debate(ctx, locals.power, result.card, locals.piece, false)
    ctx:pop({ debated = locals.power })
  elseif locals.preempt and locals.debater then
    ctx:log(string.format("France's fate die gives no French card: the pre-empt fails and is not counted; %s debate goes ahead.",
      powers.possessive(name(ctx, locals.debater))))
    ctx:replace("solo_debate", { power = locals.debater, piece = locals.piece })
  elseif locals.preempt then
    ctx:log("France's fate die gives no French card: the pre-empt fails and is not counted.")
    ctx:replace("debate", { player = locals.player, piece = locals.piece, leader = false })
  else
    ctx:log(string.format("%s gets no card: no debate.", name(ctx, locals.power)))
    ctx:pop({})
  end
end

-- A trade between displays (16.2, Round 1; 19.3): the card offered lies face down
-- (`locals.card`, in the offering side's "offer" zone); the other power accepts or refuses;
-- if it accepts, its fate die gives the card it lays face down in return; then each card
-- goes to the other side (option cdgsm.trade_card), and a refused offer's card back to its
-- own side the same way. Only the two powers' seats are told the names.
states.solo_trade = steps.procedure("A trade between the solo displays", {
  {
    name = "the offer",
    calls = "decide",
    run = function(ctx)
      local locals = ctx.locals
      ctx:log(string.format("%s offers %s a card in trade, face down.", name(ctx, locals.from), name(ctx, locals.to)))
      return steps.call("decide", { power = locals.to, key = "trade_answer",
        text = string.format("%s offers you a card in trade, face down: refuse, or accept and give the card your fate die gives (19.3)?",
          name(ctx, locals.from)),
        options = { { arg = false, label = "Refuse the trade" }, { arg = true, label = "Accept: the fate die gives the card you give" } } })
    end,
    resume = decide.keep("accepted"),
  },
  {
    name = "the card given in return",
    calls = "cdgsm_play",
    run = function(ctx)
      if ctx.locals.accepted then
        return play(ctx.locals.to, "trade")
      end
    end,
    resume = function(ctx, result)
      ctx.locals.answer = result.card
    end,
  },
  {
    name = "the exchange",
    run = function(ctx)
      local locals = ctx.locals
      local how = options.get(ctx, "cdgsm.trade_card")
      local from_seat, to_seat = powers.seat(ctx, locals.from), powers.seat(ctx, locals.to)
      local offered, answer = locals.card, locals.answer
      if answer == nil then
        ctx:log(string.format("%s %s: the card offered goes back to %s.", name(ctx, locals.to),
          locals.accepted and "has no card to give" or "refuses", solo.side_name(solo.side_of(locals.from))))
        ctx:tell(from_seat, string.format("You keep %s.", cards.name(ctx, offered)))
        solo.receive(ctx, solo.side_of(locals.from), offered, how)
        return
      end
      ctx:log(string.format("%s accepts: the two powers exchange a card face down.", name(ctx, locals.to)))
      ctx:tell(from_seat, string.format("You gave %s and received %s.", cards.name(ctx, offered), cards.name(ctx, answer)))
      ctx:tell(to_seat, string.format("You received %s and gave %s.", cards.name(ctx, offered), cards.name(ctx, answer)))
      solo.receive(ctx, solo.side_of(locals.to), offered, how)
      solo.receive(ctx, solo.side_of(locals.from), answer, how)
    end,
  },
  finish = function()
    return {}
  end,
})

-- The card a Leader's play or debate costs, from the display through the fate die.
states.solo_leader_discard = {}

function states.solo_leader_discard.run(ctx)
  local power = ctx.locals.power
  ctx:call("cdgsm_play", { side = solo.side_of(power), power = power, purpose = "discard" })
end

function states.solo_leader_discard.on_resume(ctx, result)
  if result.card then
    ctx:move_card(result.card, "discard")
    ctx:log(string.format("%s discards %s for %s.", name(ctx, ctx.locals.power), cards.name(ctx, result.card),
      cards.name(ctx, ctx.locals.card)))
  end
  ctx:pop({})
end

return states
