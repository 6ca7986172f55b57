package org.idgen.it;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** events: id bigint DEFAULT snowflake(7). */
@Entity
@Table(name = "events")
public class Event
{
	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String kind;

	protected Event()
	{
	}

	public Event(String kind)
	{
		this.kind = kind;
	}

	public Long getId()
	{
		return id;
	}

	public String getKind()
	{
		return kind;
	}
}
