-- Congress of Vienna bots' shared library: where a card takes an issue on the Diplomacy
-- Display, seen from the power that plays it, and the card of a hand that takes it
-- farthest (18.4.5.6; 20.7.a, step 8: "the card that moves the issue the farthest"). Lifted
-- from the Lützen & Bautzen French bot.

local util = include("@lib/util.lua")
local display = include("rules/display.lua")
local cards = include("rules/cards.lua")

local track = {}

-- Where `card` would take `piece` when `power` plays it: +n on its track, 0 on the Table, -n
-- on another power's track; nil when the card's values are not all entered (a bot does not
-- ask).
function track.position_after(ctx, card, piece, power, debate)
  if not cards.known(ctx, card) then
    return nil
  end
  local owner, n = display.after_move(ctx, piece, power, cards.move_total(ctx, card, power, piece, debate))
  n = math.min(n, display.SEAT)
  if owner == nil then
    return 0
  end
  return owner == power and n or -n
end

-- `power`'s gain in spaces when `card` goes on `piece` (from -7 to 7, its own track
-- positive), and where it lands; nil when the card's values are not entered.
function track.gain(ctx, card, piece, power, debate)
  local after = track.position_after(ctx, card, piece, power, debate)
  if after == nil then
    return nil
  end
  return after - (display.position(ctx, piece, power) or 0), after
end

-- The card of `hand` that takes `piece` farthest toward `power`, and where; `break_tie(tied)`
-- picks among equal cards (the bot's own tie rule). Nil when no card's values are entered.
function track.best_card(ctx, hand, piece, power, debate, break_tie)
  local best, tied = util.highest(hand, function(card)
    return track.position_after(ctx, card, piece, power, debate)
  end)
  if best == nil then
    return nil
  end
  return break_tie(tied), best
end

-- A position in words, from the power's side: "France 3", "the Negotiation Table",
-- "another power's track (2)".
function track.words(ctx, power, pos)
  if pos == 0 then
    return "the Negotiation Table"
  end
  return pos > 0 and display.describe(ctx, power, pos) or string.format("another power's track (%d)", -pos)
end

return track
