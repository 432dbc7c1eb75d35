-- Congress of Vienna: the four Major Powers, their order around the table and who takes
-- part in a phase. The seating around the board, read clockwise, is France, Russia,
-- Britain, Austria (Playbook 16.2: with Austria winning the wager the order is FR, RU, BR,
-- AU; the bots' "clockwise Russia, Britain, Austria" after France, 20.7).

local util = include("@lib/util.lua")

local powers = {}

powers.CLOCKWISE = { "FR", "RU", "BR", "AU" }

-- How many people play in each seating; "1-Player" and "2-Player" rules read this.
local PLAYERS = {
  ["four-players"] = 4,
  ["three-players"] = 3,
  ["two-players"] = 2,
}

function powers.players(ctx)
  return PLAYERS[ctx.vars.seating] or 1
end

function powers.name(ctx, power)
  return ctx.data.seats[power].name
end

--- "France's", "the Allies'": a name's possessive.
function powers.possessive(name)
  if string.sub(name, -1) == "s" then
    return name .. "'"
  end
  return name .. "'s"
end

local ADJECTIVES = { FR = "French", RU = "Russian", AU = "Austrian", BR = "British" }

-- "the British track": the power's adjective.
function powers.adjective(power)
  return ADJECTIVES[power] or power
end

-- Whether the seating is one of the solitaire seatings of 20-23 (not Lützen & Bautzen's
-- "solo").
function powers.solitaire(ctx)
  return string.sub(ctx.vars.seating or "", 1, 5) == "solo-"
end

-- The reduced-player rules in force: 2 (18.2: one Allied player, on the British chair, plays
-- Russia, Britain and Austria from one hand), 3 (18.3: one player plays Russia and Austria
-- from one hand), or nil. Lützen & Bautzen's two- and three-player games keep every power's
-- own hand (18.4.1), so they are not these variants.
function powers.variant(ctx)
  local vars = ctx.vars
  if vars.lutzen then
    return nil
  end
  local n = PLAYERS[vars.seating]
  if n == 2 or n == 3 then
    return n
  end
  return nil
end

-- The seat that decides for `power`: in the two-player game Britain's for every Allied
-- power, in the three-player game Russia's for Austria, otherwise the power's own.
function powers.seat(ctx, power)
  local variant = powers.variant(ctx)
  if variant == 2 and power ~= "FR" then
    return "BR"
  elseif variant == 3 and power == "AU" then
    return "RU"
  end
  return power
end

-- The hand a power plays from: its seat's.
function powers.hand_zone(ctx, power)
  return "hand." .. powers.seat(ctx, power)
end

-- Whether the player of `power` plays another power in the game too.
function powers.shares_seat(ctx, power)
  if powers.variant(ctx) == nil then
    -- Every power has a seat of its own (powers.seat): a prompt's every label asks.
    return false
  end
  local seat = powers.seat(ctx, power)
  for _, other in ipairs(powers.CLOCKWISE) do
    if other ~= power and powers.seat(ctx, other) == seat and not powers.out(ctx, other) then
      return true
    end
  end
  return false
end

-- Scores `n` VP for `power` (a power out of the game scores nothing) and logs it after
-- `why`: "Saxony changes hands: Russia +3 VP (34)."
function powers.score(ctx, power, n, why)
  if n == 0 or powers.out(ctx, power) then
    return
  end
  local vp = ctx:add_counter("vp." .. power, n)
  ctx:log(string.format("%s: %s %+d VP (%d).", why, powers.name(ctx, power), n, vp))
end

-- A prompt for a power whose player plays several powers starts with "As Austria: ".
function powers.as_power(ctx, power)
  return powers.shares_seat(ctx, power) and ("As " .. powers.name(ctx, power) .. ": ") or ""
end

-- Whether one person plays both powers.
function powers.same_player(ctx, a, b)
  return powers.seat(ctx, a) == powers.seat(ctx, b)
end

-- Whether Austria at War is in effect: it has occurred, or the scenario starts after it.
function powers.austria_at_war(ctx)
  return ctx.vars.austria_at_war_done == true or util.contains(ctx.vars.removed_issues or {}, "austria_at_war")
end

-- Whether a rule limited to `players` (a list of player counts, or nil for every game)
-- applies to this game.
function powers.applies(ctx, players)
  if players == nil then
    return true
  end
  return util.contains(players, powers.players(ctx))
end

-- Whether a power is out of the game (Lützen & Bautzen: Austria, 18.4.1).
function powers.out(ctx, power)
  local out = ctx.vars.out_of_game or {}
  return out[power] == true
end

-- Whether a power sits out this turn's Diplomacy Phase: no wager, no issues, no
-- negotiation, debate or trade offers (Intr-2: Britain in 1- and 2-player games).
function powers.passive(ctx, power)
  local passive = (ctx.vars.turn_rules or {}).passive or {}
  return passive[power] == true or powers.out(ctx, power)
end

-- The powers in the game, clockwise from France.
function powers.in_game(ctx)
  return util.filter(powers.CLOCKWISE, function(power)
    return not powers.out(ctx, power)
  end)
end

-- The Allied powers in the game, clockwise from France.
function powers.allied(ctx)
  return util.filter(powers.in_game(ctx), function(power)
    return power ~= "FR"
  end)
end

-- The powers clockwise starting with the one to the left of `first_after` (the next one
-- clockwise), each once, ending with `first_after` itself; only those `keep` accepts.
function powers.from_left_of(ctx, first_after, keep)
  local start = 1
  for i, power in ipairs(powers.CLOCKWISE) do
    if power == first_after then
      start = i
    end
  end
  local list = {}
  for k = 1, #powers.CLOCKWISE do
    local power = powers.CLOCKWISE[(start + k - 1) % #powers.CLOCKWISE + 1]
    if keep == nil or keep(power) then
      list[#list + 1] = power
    end
  end
  return list
end

return powers
