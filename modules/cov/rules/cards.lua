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
local once = include("rules/once.lua")
local display = include("rules/display.lua")
local powers = include("rules/powers.lua")

local cards = {}

-- What never changes in a game, read once (rules/once.lua): each card's fields (the
-- read-only view of them, whose values not entered are still asked for when read), whether
-- it is a Leader, and whether all the values its sum reads are entered (each issue marker's
-- issue is display.issue_of's, read once too).
local fields = once.per_key(function(ctx, card)
  return ctx.data.cards[card].fields
end)

local issue_of = display.issue_of

function cards.name(ctx, card)
  return ctx.data.cards[card].name
end

cards.is_leader = once.per_key(function(ctx, card)
  return ctx.data.cards[card].deck == "leader"
end)

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

local SUM_FIELDS = { "value", "nation", "modifiers_all", "penalties" }

local function all_entered(ctx, card)
  for i = 1, #SUM_FIELDS do
    if not ctx:known("card", card, SUM_FIELDS[i]) then
      return false
    end
  end
  if fields(ctx, card).nation ~= "neutral" then
    return ctx:known("card", card, "modifiers")
  end
  return true
end

-- Whether every value the sum for this card would read is entered (to label actions in a
-- prompt without asking).
cards.known = once.per_key(all_entered)

-- Whether `v` is a number a sum takes as a term (finite: modifiers.lua's Sum:add).
local function finite(v)
  return type(v) == "number" and v - v == 0
end

-- What `card` moves `piece` when `power` plays it, before the floor of 0; `debate` is
-- true when the card debates the play of another power; `track` is the issue's track
-- (false: none), worked out if nil. With `sum`, each term that counts is added to it with
-- its words; without, no words are made (a bot weighs every card on every issue), and a
-- term that is not a number gives nil. Each term is written out, not passed to a helper:
-- this runs for every card on every issue a bot weighs.
local function move(ctx, card, power, piece, debate, track, sum)
  local f = fields(ctx, card)
  local issue = issue_of(ctx, piece)
  local issue_name = sum and ctx.data.pieces[piece].name
  -- The printed value always; any other term unless it is zero (nil, false or 0).
  local v = f.value
  if sum then
    sum:add(v, cards.name(ctx, card))
  elseif not finite(v) then
    return nil
  end
  local total = 0 + v
  local nation = f.nation
  if nation == power then
    local own = f.modifiers or {}
    v = own[issue]
    if v and v ~= 0 then
      if sum then sum:add(v, issue_name) elseif not finite(v) then return nil end
      total = total + v
    end
    v = debate and own.debate
    if v and v ~= 0 then
      if sum then sum:add(v, "when debating") elseif not finite(v) then return nil end
      total = total + v
    end
  end
  local all = f.modifiers_all or {}
  v = all[issue]
  if v and v ~= 0 then
    if sum then sum:add(v, issue_name .. " (every player)") elseif not finite(v) then return nil end
    total = total + v
  end
  v = all[power .. "/" .. issue]
  if v and v ~= 0 then
    if sum then
      sum:add(v, issue_name .. " for " .. ctx.data.seats[power].name)
    elseif not finite(v) then
      return nil
    end
    total = total + v
  end
  if track == nil then
    track = display.track_of(ctx, piece)
  end
  v = track and all["track_" .. track]
  if v and v ~= 0 then
    if sum then
      sum:add(v, "issue on the " .. powers.adjective(track) .. " track")
    elseif not finite(v) then
      return nil
    end
    total = total + v
  end
  v = debate and all.debate
  if v and v ~= 0 then
    if sum then sum:add(v, "when debating") elseif not finite(v) then return nil end
    total = total + v
  end
  v = (f.penalties or {})[power]
  if v and v ~= 0 then
    if sum then
      sum:add(v, "played by " .. ctx.data.seats[power].name)
    elseif not finite(v) then
      return nil
    end
    total = total + v
  end
  if debate and power == "AU" and nation == "AU" then
    if sum then sum:add(1, "Austrian National Advantage (debate)") end
    total = total + 1
  end
  if track == "FR" and power ~= "FR" then
    if sum then sum:add(-1, "French National Advantage (issue on the French track)") end
    total = total - 1
  end
  return total
end

-- The explained sum of what `card` moves `piece` when `power` plays it; `debate` is true
-- when the card debates the play of another power.
function cards.move_sum(ctx, card, power, piece, debate)
  local sum = modifiers.sum(string.format("%s on %s", cards.name(ctx, card), ctx.data.pieces[piece].name))
  move(ctx, card, power, piece, debate, nil, sum)
  return sum:clamp(0, nil)
end

-- move_sum's total without its words: the same terms added in the same order, so the same
-- number to the last bit. `track` is the issue's track (false: none) if the caller knows
-- it. A term that is not a number is left to move_sum, which says which.
function cards.move_total(ctx, card, power, piece, debate, track)
  local total = move(ctx, card, power, piece, debate, track)
  if total == nil then
    return cards.move_sum(ctx, card, power, piece, debate):total()
  end
  return total < 0 and 0 or total
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
