-- Congress of Vienna: what a card is worth on an issue in the Diplomacy Phase, as an
-- explained sum. Playbook 16.2 gives every kind of term:
--   * the printed value (the circle at the top left);
--   * modifiers by issue when the card's own power plays it (black diamond: HUSKISSON +3 on
--     Liberalism/Absolutism for Britain);
--   * modifiers for every player (white feather), by issue, by the track the issue sits on
--     ("track_BR": GRAHAM +1 on issues on the British track), or for one power and issue
--     ("FR/saxony": FRIEDRICH AUGUST counts 6 for Saxony in the French hand);
--   * the card's penalty for the power that plays it (DAVOUT -2 for any Allied power,
--     STADION -1 for France);
--   * a bonus when the card debates ("debate": NESSELRODE +1, 20.7);
--   * the Austrian National Advantage: +1 when Austria debates with an Austrian card;
--   * the French National Advantage: -1 to any other power's card that moves an issue
--     sitting on the French track (16.2, Round 4 and Round 5).
-- Every number comes from the card's data; a value not entered yet is asked for.

local modifiers = include("@lib/modifiers.lua")
local display = include("rules/display.lua")
local powers = include("rules/powers.lua")

local cards = {}

local function fields(ctx, card)
  return ctx.data.cards[card].fields
end

function cards.name(ctx, card)
  return ctx.data.cards[card].name
end

function cards.is_leader(ctx, card)
  return ctx.data.cards[card].deck == "leader"
end

-- The card's nation (asked for if not entered).
function cards.nation(ctx, card)
  return fields(ctx, card).nation
end

-- The CDG letters (19.3, the first note): D the lowest, A the highest.
cards.LETTER_RANK = { D = 1, C = 2, B = 3, A = 4 }

-- The card's CDG letter for `power` (asked for if not entered).
function cards.letter(ctx, card, power)
  return fields(ctx, card)["cdg_" .. power]
end

-- The card's CDG letter for `power`, or nil for a Leader, a letter not entered (a bot does
-- not ask) or anything but A to D.
function cards.known_letter(ctx, card, power)
  local field = "cdg_" .. power
  if cards.is_leader(ctx, card) or not ctx:known("card", card, field) then
    return nil
  end
  local l = fields(ctx, card)[field]
  return cards.LETTER_RANK[l] and l or nil
end

-- The printed value, as the wager reads it (no modifiers, 16.2).
function cards.printed(ctx, card)
  return fields(ctx, card).value
end

-- Whether every value the sum for this card would read is entered (to label actions in a
-- prompt without asking).
function cards.known(ctx, card)
  for _, field in ipairs({ "value", "nation", "modifiers_all", "penalties" }) do
    if not ctx:known("card", card, field) then
      return false
    end
  end
  if fields(ctx, card).nation ~= "neutral" then
    return ctx:known("card", card, "modifiers")
  end
  return true
end

-- The explained sum of what `card` moves `piece` when `power` plays it; `debate` is true
-- when the card debates the play of another power.
function cards.move_sum(ctx, card, power, piece, debate)
  local f = fields(ctx, card)
  local issue = ctx.data.pieces[piece].props.issue
  local issue_name = ctx.data.pieces[piece].name
  local sum = modifiers.sum(string.format("%s on %s", cards.name(ctx, card), issue_name))
  sum:add(f.value, cards.name(ctx, card))
  local nation = f.nation
  -- A term's words are made only when the term counts: a bot weighs many plays.
  if nation == power then
    local own = f.modifiers or {}
    sum:add_if((own[issue] or 0) ~= 0, own[issue] or 0, issue_name)
    if debate then
      sum:add_if((own.debate or 0) ~= 0, own.debate or 0, "when debating")
    end
  end
  local all = f.modifiers_all or {}
  if (all[issue] or 0) ~= 0 then
    sum:add(all[issue], issue_name .. " (every player)")
  end
  local key = power .. "/" .. issue
  if (all[key] or 0) ~= 0 then
    sum:add(all[key], issue_name .. " for " .. ctx.data.seats[power].name)
  end
  local track = display.track_of(ctx, piece)
  if track then
    local on_track = all["track_" .. track] or 0
    if on_track ~= 0 then
      sum:add(on_track, "issue on the " .. powers.adjective(track) .. " track")
    end
  end
  if debate then
    sum:add_if((all.debate or 0) ~= 0, all.debate or 0, "when debating")
  end
  local penalty = (f.penalties or {})[power] or 0
  if penalty ~= 0 then
    sum:add(penalty, "played by " .. ctx.data.seats[power].name)
  end
  sum:add_if(debate and power == "AU" and nation == "AU", 1, "Austrian National Advantage (debate)")
  sum:add_if(track == "FR" and power ~= "FR", -1, "French National Advantage (issue on the French track)")
  sum:clamp(0, nil)
  return sum
end

-- Whether `v` is a number a sum takes as a term (finite: modifiers.lua's Sum:add).
local function finite(v)
  return type(v) == "number" and v - v == 0
end

-- What `card` moves `piece` when `power` plays it: move_sum's total, worked out without
-- the words (a bot weighs every card on every issue). `track` is the issue's track (false:
-- none) if the caller knows it. The fields are read and the terms added in move_sum's
-- order, so an unentered field is asked for first and the totals are the same to the last
-- bit; a term that is not a number is left to move_sum, which says which.
function cards.move_total(ctx, card, power, piece, debate, track)
  local f = fields(ctx, card)
  local issue = ctx.data.pieces[piece].props.issue
  -- The printed value always; any other term unless it is zero (nil, false or 0).
  local v = f.value
  if not finite(v) then
    return cards.move_sum(ctx, card, power, piece, debate):total()
  end
  local total = 0 + v
  local nation = f.nation
  local own = nation == power and (f.modifiers or {}) or nil
  local all = f.modifiers_all or {}
  if track == nil then
    track = display.track_of(ctx, piece)
  end
  local terms = {
    own and own[issue],
    own and debate and own.debate,
    all[issue],
    all[power .. "/" .. issue],
    track and all["track_" .. track],
    debate and all.debate,
    (f.penalties or {})[power],
  }
  for i = 1, 7 do
    v = terms[i]
    if v and v ~= 0 then
      if not finite(v) then
        return cards.move_sum(ctx, card, power, piece, debate):total()
      end
      total = total + v
    end
  end
  if debate and power == "AU" and nation == "AU" then
    total = total + 1
  end
  if track == "FR" and power ~= "FR" then
    total = total - 1
  end
  if total < 0 then
    total = 0
  end
  return total
end

-- The cards `power` may play from the hand its player holds, its own Leader apart (a hand
-- shared by several powers holds each one's Leader, 18.2-18.3).
function cards.hand(ctx, power)
  local list, leaders = {}, {}
  for _, card in ipairs(ctx:zone(powers.hand_zone(ctx, power))) do
    if cards.is_leader(ctx, card) then
      if not ctx:known("card", card, "nation") or cards.nation(ctx, card) == power then
        leaders[#leaders + 1] = card
      end
    else
      list[#list + 1] = card
    end
  end
  return list, leaders
end

return cards
