-- Congress of Vienna bots' shared library: the issues a bot's priority list names. An entry
-- is an issue kind ("lib_abs") or a class: "minor_unit" (a minor ally of the power's side
-- that gives it a unit when funded), "minor" (any minor ally of its side), and the Allied
-- classes "allied_mil_op" and "allied_recruitment". A bot reads only what is entered: a
-- minor's side not entered does not match, and a funding not entered counts as giving units
-- (the reading of 18.4.6.1, RULES-GAPS.md). Lifted from the Lützen & Bautzen French bot
-- (18.4.5.3, 18.4.5.7); the priority tables of 20.4 and 21.4 name the same classes.

local util = include("@lib/util.lua")
local flowchart = include("@lib/flowchart.lua")
local rules_issues = include("rules/issues.lua")
local effects = include("rules/effects.lua")
local chart = include("bots/lib/chart.lua")

local issues = {}

-- The minor countries' issues (those with a "minor" property in data/issues.ron).
issues.MINORS = { italy = true, naples = true, bavaria = true, norway = true, saxony = true, holland = true,
  hanover = true, poland = true, savoy = true }

local SIDE = { FR = "french_ally" }

-- Whether funding `piece` gives `power` units, as far as the owner has entered it (not
-- entered: yes).
function issues.gives_units(ctx, piece, power)
  if not ctx:known("table", "issue_funding", ctx.data.pieces[piece].props.issue .. "/" .. power) then
    return true
  end
  return rules_issues.gives_unit(ctx, piece, power)
end

-- Whether the issue `piece` is what a priority entry names, for `power`.
function issues.matches(ctx, piece, entry, power)
  local props = ctx.data.pieces[piece].props
  if entry == "minor_unit" or entry == "minor" then
    local ally = issues.MINORS[props.issue] and ctx:known("piece", piece, "minor")
      and props.minor == (SIDE[power] or "allied")
    return ally and (entry == "minor" or issues.gives_units(ctx, piece, power))
  elseif entry == "allied_mil_op" then
    return util.contains({ "mil_op_ru", "mil_op_br", "mil_op_au" }, props.issue)
  elseif entry == "allied_recruitment" then
    return util.contains({ "recruit_ru", "recruit_br", "recruit_au" }, props.issue)
  end
  return props.issue == entry
end

-- The index of the first offered action whose issue matches an entry of `list`, in the
-- list's order, with the entry's rank and the entry.
function issues.first_offered(ctx, actions, list, power)
  for rank, entry in ipairs(list) do
    local i = flowchart.first(actions, function(a)
      return type(a.arg) == "string" and ctx.data.pieces[a.arg] ~= nil and issues.matches(ctx, a.arg, entry, power)
    end)
    if i then
      return i, rank, entry
    end
  end
  return nil
end

-- The rank of `piece` in `list` (one past the list's end when no entry names it).
function issues.rank(ctx, piece, list, power)
  for rank, entry in ipairs(list) do
    if issues.matches(ctx, piece, entry, power) then
      return rank
    end
  end
  return #list + 1
end

local filter = chart.filter

-- Whether a chart row's issue names `piece` for `power`: an issue kind, or a class of minor
-- allies of its side (minor_unit: one that gives it a unit; minor_vp: one that gives only
-- VP; minor_ally: either, 20.4, L1557, and 21.4's footnote **). A bot ranks every offered
-- issue against every row.
function issues.row_names(ctx, entry, piece, power)
  if entry == "minor_ally" then
    return issues.row_names(ctx, "minor_unit", piece, power) or issues.row_names(ctx, "minor_vp", piece, power)
  elseif entry == "minor_unit" then
    return issues.matches(ctx, piece, "minor", power) and issues.gives_units(ctx, piece, power)
  elseif entry == "minor_vp" then
    return issues.matches(ctx, piece, "minor", power) and not issues.gives_units(ctx, piece, power)
  end
  return ctx.data.pieces[piece].props.issue == entry
end

-- The pieces of `pieces` a chart row's issue names for `power` (row_names); for
-- minor_ally, those that give a unit if any does, else those that give only VP.
function issues.row_issues(ctx, entry, pieces, power)
  local function named(e)
    return filter(pieces, function(p)
      return issues.row_names(ctx, e, p, power)
    end)
  end
  if entry == "minor_ally" then
    local list = named("minor_unit")
    if #list > 0 then
      return list
    end
    entry = "minor_vp"
  end
  return named(entry)
end

-- A chart row's issue in words: the class's words in `minor_words`, or the issue's name.
function issues.entry_words(ctx, entry, minor_words)
  if minor_words[entry] then
    return minor_words[entry]
  end
  for _, id in ipairs(ctx.data.piece_ids) do
    local piece = ctx.data.pieces[id]
    if piece.kind == "issue" and piece.props.issue == entry then
      return piece.name
    end
  end
  return entry
end

-- The issue of `pieces` on which `card` collects its own bonus when `power` plays it, or nil
-- (20.5.2, L1583; 21.5, L1832: a card that cannot collect its bonus is a normal card).
function issues.bonus_issue(ctx, card, power, pieces)
  local effect = effects[card]
  if effect == nil or effect.bonus == nil then
    return nil
  end
  for _, piece in ipairs(pieces) do
    if effect.bonus(ctx, power, piece) then
      return piece
    end
  end
  return nil
end

return issues
